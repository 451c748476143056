import { Duplicates } from '../../_components/publishing/duplicates';
import { prefetch, staffCaller } from '../../_lib/server-caller';

export default async function DuplicatesPage() {
  const caller = await staffCaller();
  const [groups, connections] = await Promise.all([prefetch(() => caller.posts.duplicates()), prefetch(() => caller.connections.list())]);
  return <Duplicates initial={groups} connections={connections ?? []} />;
}
