import { PostingQueue } from '../_components/publishing/posting-queue';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function QueuePage() {
  const caller = await staffCaller();
  const [queue, connections] = await Promise.all([prefetch(() => caller.queue.get({ days: 7 })), prefetch(() => caller.connections.list())]);
  return <PostingQueue initial={queue} connections={connections ?? []} />;
}
