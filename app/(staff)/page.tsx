import { Dashboard } from './_components/shell/dashboard';
import { prefetch, staffCaller } from './_lib/server-caller';

export default async function DashboardPage() {
  const caller = await staffCaller();
  return <Dashboard initial={await prefetch(() => caller.app.dashboard())} />;
}
