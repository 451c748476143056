import { PostImport } from '../../_components/publishing/post-import';

export default function ImportPostsPage() {
  return <PostImport />;
}
