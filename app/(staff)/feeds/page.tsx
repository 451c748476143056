import { Feeds } from '../_components/publishing/feeds';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function FeedsPage() {
  const caller = await staffCaller();
  const [feeds, connections] = await Promise.all([prefetch(() => caller.feeds.list()), prefetch(() => caller.connections.list())]);
  return <Feeds initial={feeds} connections={connections ?? []} />;
}
