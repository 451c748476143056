import { PostsList } from '../_components/publishing/posts-list';
import { staffCaller } from '../_lib/server-caller';

export default async function PostsPage() {
  const caller = await staffCaller();
  return <PostsList initial={await caller.posts.list({ page: 1, limit: 25 }).catch(() => null)} />;
}
