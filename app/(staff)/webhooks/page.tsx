import { env } from '@/server/config/env';
import { Webhooks } from '../_components/automation/webhooks';
import { prefetch, staffCaller } from '../_lib/server-caller';

export default async function WebhooksPage() {
  const caller = await staffCaller();
  // The deployment's allow list goes to the form so its as-you-type check gives the verdict the
  // server will give (empty in production; tests allow their loopback receiver).
  return <Webhooks initial={await prefetch(() => caller.webhooks.list())} allowHosts={env.outboundAllowHosts()} />;
}
