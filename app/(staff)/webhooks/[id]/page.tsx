import { WebhookDetail } from '../../_components/automation/webhook-detail';
import { prefetch, staffCaller } from '../../_lib/server-caller';

export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const caller = await staffCaller();
  return <WebhookDetail id={id} initial={await prefetch(() => caller.webhooks.get({ id }))} />;
}
