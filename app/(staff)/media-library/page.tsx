import { MediaLibrary } from '../_components/publishing/media-library';
import { staffCaller } from '../_lib/server-caller';

export default async function MediaLibraryPage() {
  const caller = await staffCaller();
  return <MediaLibrary initial={await caller.media.list({ page: 1, limit: 24, status: 'ready' }).catch(() => null)} />;
}
