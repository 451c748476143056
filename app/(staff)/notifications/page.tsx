import { Notifications } from '../_components/shell/notifications';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function NotificationsPage() {
  const caller = await staffCaller();
  return <Notifications initial={await prefetch(() => caller.notifications.list())} />;
}
