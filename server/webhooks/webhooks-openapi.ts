// The `webhooks` section of the contract document (OpenAPI 3.1): one entry per event Herald
// sends, each the POST a receiver gets — the envelope with that event's `data`, the signature
// and delivery headers, and what the receiver must answer. Built from the event catalogue
// (server/events/catalogue.ts) and the header names and envelope the sender itself uses, so
// the document cannot describe a payload or a header Herald does not send. docs/webhooks.md
// is tested against this section (webhooks-openapi.test.ts).
import { z } from 'zod';
import { DOMAIN_EVENT_DATA_SCHEMAS, DOMAIN_EVENT_DESCRIPTIONS, DOMAIN_EVENT_TYPES, PING_DATA_SCHEMA } from '@/server/events/catalogue';
import { HEADERS, WEBHOOK_USER_AGENT } from '@/server/shared/headers';
import { ENVELOPE_VERSION, PING_EVENT } from './envelope';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './attempt';
import { AUTO_PAUSE_THRESHOLD } from './pause';
import { RECEIVER_TIMEOUT_MS } from './transport';

type Json = Record<string, unknown>;

export const SIGNATURE_ALGORITHM =
  `${HEADERS.signature} is the lower-case hex HMAC-SHA256 of the raw request body, keyed with the endpoint's whole secret ` +
  '(`whsec_` + 64 hex characters, returned by POST /webhooks and POST /webhooks/{id}/rotate-secret). ' +
  'Compute it over the bytes received, before parsing the JSON; trim and lower-case the header, compare in constant time ' +
  '(an empty or wrong-length value fails), and only then parse.';

/** The headers every delivery carries, as OpenAPI header parameters. */
export function deliveryHeaders(event: string): Json[] {
  return [
    { name: HEADERS.signature, in: 'header', required: true, description: SIGNATURE_ALGORITHM, schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
    {
      name: HEADERS.event,
      in: 'header',
      required: true,
      description: 'The event name, equal to `event` in the body.',
      schema: { type: 'string', const: event },
    },
    {
      name: HEADERS.delivery,
      in: 'header',
      required: true,
      description: 'The delivery id: identical on every retry of this delivery, so receivers de-duplicate on it.',
      schema: { type: 'string', format: 'uuid' },
    },
    { name: 'User-Agent', in: 'header', required: true, description: 'Herald’s webhook sender.', schema: { type: 'string', const: WEBHOOK_USER_AGENT } },
  ];
}

const RECEIVER_CONTRACT =
  `Answer any 2xx within ${RECEIVER_TIMEOUT_MS / 1000} seconds. Anything else (a timeout, a 3xx — redirects are never followed —, a 4xx or 5xx) is a failed attempt: ` +
  `${MAX_ATTEMPTS} attempts per delivery (at once, then ${RETRY_DELAYS_MS.map((ms) => `${ms / 1000} s`).join(' and ')} after the failures before), all with the same ${HEADERS.delivery}; ` +
  `${AUTO_PAUSE_THRESHOLD} consecutive failed attempts pause the endpoint (PATCH /webhooks/{id} with active true resumes it).`;

function envelopeSchema(event: string, data: z.ZodObject): Json {
  const dataJson = z.toJSONSchema(data, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Json;
  delete dataJson.$schema;
  return {
    type: 'object',
    required: ['version', 'event', 'timestamp', 'data'],
    properties: {
      version: { type: 'string', const: ENVELOPE_VERSION, description: `The envelope version: "${ENVELOPE_VERSION}" while these field names hold.` },
      event: { type: 'string', const: event, description: 'The event name, equal to the X-Service-Event header.' },
      timestamp: {
        type: 'string',
        format: 'date-time',
        description: 'When the change happened (its event was committed), ISO 8601 UTC.',
        example: '2026-11-22T20:31:07.412Z',
      },
      data: { ...dataJson, description: 'The event’s fields, exactly these; a reading Herald does not have is null, never 0 or "".' },
    },
  };
}

function webhookEntry(event: string, when: string, data: z.ZodObject): Json {
  return {
    post: {
      operationId: `webhook_${event.replace(/\./g, '_')}`,
      tags: ['Webhooks'],
      summary: event,
      description: `${when} Sent as a signed POST to every active endpoint subscribed to \`${event}\`. ${RECEIVER_CONTRACT}`,
      security: [],
      parameters: deliveryHeaders(event),
      requestBody: {
        required: true,
        description: `The \`${event}\` envelope, serialised once and sent byte for byte on every attempt.`,
        content: { 'application/json': { schema: envelopeSchema(event, data) } },
      },
      responses: {
        '2XX': { description: `Received: any 2xx within ${RECEIVER_TIMEOUT_MS / 1000} seconds acknowledges the delivery; the body is ignored.` },
        default: { description: 'Anything else is a failed attempt, retried as described above.' },
      },
    },
  };
}

/** The `webhooks` section: every subscribable event, and the test route's `ping`. */
export function webhooksSection(): Json {
  const section: Json = {};
  for (const event of DOMAIN_EVENT_TYPES) section[event] = webhookEntry(event, DOMAIN_EVENT_DESCRIPTIONS[event], DOMAIN_EVENT_DATA_SCHEMAS[event]);
  section[PING_EVENT] = webhookEntry(PING_EVENT, 'A test delivery, sent only by POST /webhooks/{id}/test; it cannot be subscribed to.', PING_DATA_SCHEMA);
  return section;
}
