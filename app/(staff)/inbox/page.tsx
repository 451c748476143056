import { Inbox } from '../_components/engagement/inbox';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function InboxPage({ searchParams }: { searchParams: Promise<{ postId?: string }> }) {
  const { postId } = await searchParams;
  const caller = await staffCaller();
  const shell = await prefetch(() => caller.app.shell());
  const scope = shell?.workspaces.find((w) => w.id === shell.current.id)?.clients.length ? 'agency' : 'workspace';
  // The first page for the first paint (the whole page: items, cursor, unread count).
  const initial = postId ? null : await prefetch(async () => ({ data: await caller.inbox.list({ status: 'open', scope, limit: 50 }) }));
  return <Inbox initial={initial} postId={postId} />;
}
