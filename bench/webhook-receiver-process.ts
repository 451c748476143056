// The benchmark's HTTPS receiver, in a process of its own (as a real receiver would be), so
// its TLS work does not share Herald's event loop. Tells the parent its port and certificate,
// then reports every first arrival of a delivery: [deliveryId, postId, receivedAt] in batches.
import { startWebhookReceiver } from '@/server/webhooks/testing/webhook-receiver';

const receiver = await startWebhookReceiver({ record: false });
const seen = new Set<string>();
let batch: [string, string, number][] = [];
receiver.onRequest = (request) => {
  const deliveryId = request.headers['x-service-delivery']!;
  if (seen.has(deliveryId)) return;
  seen.add(deliveryId);
  const { data } = JSON.parse(request.body.toString('utf8')) as { data: { postId: string } };
  batch.push([deliveryId, data.postId, request.receivedAt]);
};
setInterval(() => {
  if (batch.length === 0) return;
  process.send!({ arrivals: batch });
  batch = [];
}, 20).unref();
process.send!({ port: receiver.port, cert: receiver.cert, url: receiver.url('') });
// The bench died without telling us (killed, crashed): its IPC channel closes, and so do we.
process.on('disconnect', () => process.exit(0));
process.on('message', async (message: { close?: boolean }) => {
  if (!message.close) return;
  await receiver.close();
  process.exit(0);
});
