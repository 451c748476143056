import { Analytics } from '../_components/insights/analytics';
import { staffCaller } from '../_lib/server-caller';

export default async function AnalyticsPage() {
  const caller = await staffCaller();
  return <Analytics initialAccounts={await caller.analytics.adAccounts().catch(() => null)} />;
}
