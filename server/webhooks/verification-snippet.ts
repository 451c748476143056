// The signature verification snippet, defined once: docs/webhooks.md publishes it (a test
// checks the two are identical), the staff app shows it beside a new secret, and
// verification-snippet.test.ts runs it as written against real deliveries. Plain text with no
// imports, so the browser can import it.
export const VERIFICATION_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';
export function verifyWebhook(rawBody, signatureHeader, secret) {
  const expected = createHmac('sha256', secret).update(rawBody).digest('hex');
  const received = String(signatureHeader ?? '').trim().toLowerCase(); // lower-case hex
  return received.length === expected.length && timingSafeEqual(Buffer.from(received), Buffer.from(expected));
}
export const webhookHandler = (secret, onEvent) => (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk)).on('end', () => {
    const rawBody = Buffer.concat(chunks);
    if (!verifyWebhook(rawBody, req.headers['x-service-signature'], secret)) return res.writeHead(401).end();
    onEvent(JSON.parse(rawBody.toString('utf8')), req.headers['x-service-delivery']);
    res.writeHead(200).end();
  });
};`;
