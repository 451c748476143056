import { PendingReplies } from '../_components/engagement/pending-replies';
import { ApprovalQueue } from '../_components/publishing/approval-queue';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function ApprovalsPage() {
  const caller = await staffCaller();
  const [pending, connections] = await Promise.all([prefetch(() => caller.posts.pendingApprovals()), prefetch(() => caller.connections.list())]);
  return (
    <>
      <ApprovalQueue initial={pending} connections={connections ?? []} />
      <PendingReplies />
    </>
  );
}
