import { PostDetail } from '../../_components/publishing/post-detail';
import { prefetch, staffCaller } from '../../_lib/server-caller';

export default async function PostPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const caller = await staffCaller();
  const [post, connections] = await Promise.all([prefetch(() => caller.posts.get({ id })), prefetch(() => caller.connections.list())]);
  return <PostDetail id={id} initial={post} connections={connections ?? []} />;
}
