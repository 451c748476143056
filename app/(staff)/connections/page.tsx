import { ConnectionsList } from '../_components/clients/connections-list';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function ConnectionsPage() {
  const caller = await staffCaller();
  return <ConnectionsList initial={await prefetch(() => caller.connections.list())} />;
}
