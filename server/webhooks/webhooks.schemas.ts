// Wire schemas of the /webhooks routes (REST, tRPC and tools share them).
import { z } from 'zod';
import { DOMAIN_EVENT_TYPES } from '@/server/events/catalogue';
import { documentedAs, ZIdOf, ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';

export const MAX_NAME = 80;
export const MAX_URL = 2048;
export const MAX_DELIVERIES_LISTED = 50;

/** One endpoint as the examples show it (the reference page and the tests read them). */
const ENDPOINT_EXAMPLE = {
  id: '2b3c4d5e-6f70-4a81-92a3-b4c5d6e7f809',
  name: 'Order system',
  url: 'https://hooks.acme-coffee.example/herald',
  events: ['post.published', 'post.failed'],
  active: true,
  consecutiveFailures: 0,
  lastDeliveryAt: '2026-11-24T09:00:03.000Z',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

export const ZWebhookEndpoint = z
  .object({
    id: z.uuid().describe('The endpoint’s id'),
    name: z.string().describe('A name to recognise the endpoint by'),
    url: z.string().describe('Where deliveries are POSTed, normalised as it is called'),
    events: z.array(z.enum(DOMAIN_EVENT_TYPES)).describe('The events it receives'),
    active: z.boolean().describe('false while paused (20 consecutive failed attempts, or PATCH active false)'),
    consecutiveFailures: z.number().int().describe('Failed attempts in a row; 20 pause the endpoint, a success resets it to 0'),
    lastDeliveryAt: ZNullableTimestamp.describe('When a delivery last succeeded'),
    createdAt: ZTimestamp.describe('When the endpoint was registered'),
    updatedAt: ZTimestamp.describe('When it last changed'),
  })
  .meta({
    id: 'WebhookEndpoint',
    description: 'An address Herald POSTs the chosen events to, signed, and how its deliveries are going.',
    example: ENDPOINT_EXAMPLE,
  });
export type WebhookEndpointDto = z.infer<typeof ZWebhookEndpoint>;

export const ZWebhookEndpointWithSecret = ZWebhookEndpoint.extend({
  secret: z.string().describe('`whsec_` + 64 hex characters; shown only by create and rotate-secret'),
}).meta({
  id: 'WebhookEndpointWithSecret',
  description: 'A webhook endpoint with its signing secret, shown only by create and rotate-secret.',
  // Just created: nothing delivered yet, and the secret shown this once.
  example: { ...ENDPOINT_EXAMPLE, lastDeliveryAt: null, secret: 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' },
});
export type WebhookEndpointWithSecretDto = z.infer<typeof ZWebhookEndpointWithSecret>;

export const ZWebhookDelivery = z
  .object({
    id: z.uuid().describe('Also the X-Service-Delivery header, identical on every retry'),
    event: z.string().describe('The event name, or ping'),
    attempt: z.number().int().describe('Attempts made so far; 0 until the first try'),
    statusCode: z.number().int().nullable().describe('Status of the last attempt; null when no response arrived'),
    error: z.string().nullable().describe('Why the last attempt failed: the status and the start of the body, or what went wrong'),
    nextAttemptAt: ZNullableTimestamp.describe('When the next attempt is due; null once delivered, or after the last attempt'),
    deliveredAt: ZNullableTimestamp.describe('When a receiver acknowledged it'),
    createdAt: ZTimestamp.describe('When the delivery was created'),
    payload: z.record(z.string(), z.unknown()).describe('The body sent (the envelope), parsed from the exact bytes that were signed'),
  })
  .meta({ id: 'WebhookDelivery', description: 'One event sent (or being sent) to an endpoint: its attempts, the last answer and the body.' });
export type WebhookDeliveryDto = z.infer<typeof ZWebhookDelivery>;

/**
 * Event names are strings here: an unknown name is the service's WEBHOOK_EVENT_UNKNOWN, not a
 * schema error. An empty list or a name listed twice is a schema error (flat 400).
 */
const ZEvents = z
  .array(ZText.min(1).max(100))
  .min(1, 'list at least one event')
  .max(DOMAIN_EVENT_TYPES.length * 2)
  .refine((events) => new Set(events).size === events.length, 'list each event once')
  .meta({
    ...documentedAs(() => ({ type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...DOMAIN_EVENT_TYPES] } })),
    description: 'One or more event names of the catalogue, each once; `ping` cannot be subscribed',
    example: ['post.published', 'post.failed'],
  });

const ZName = ZText.trim().min(1).max(MAX_NAME).describe('A name to recognise the endpoint by').meta({ example: 'Order system' });
const ZUrl = ZText.trim()
  .min(1)
  .max(MAX_URL)
  .describe('https only; public addresses only (a host must resolve to them); no credentials')
  .meta({ example: 'https://hooks.acme-coffee.example/herald' });
/** A JSON boolean only: the REST facade would otherwise turn the string "false" into true. */
const ZStrictBoolean = z.literal([true, false]);

export const ZCreateWebhookInput = z.strictObject({ name: ZName, url: ZUrl, events: ZEvents });
export type CreateWebhookInput = z.infer<typeof ZCreateWebhookInput>;

export const ZUpdateWebhookInput = z.strictObject({
  name: ZName.optional(),
  url: ZUrl.optional(),
  events: ZEvents.optional(),
  active: ZStrictBoolean.optional().describe('true resumes a paused endpoint (and resets consecutiveFailures); false pauses it'),
});
export type UpdateWebhookInput = z.infer<typeof ZUpdateWebhookInput>;

export const ZWebhookId = ZIdOf('webhook endpoint', 'from webhooks_list (GET /webhooks)');
export const ZListDeliveriesQuery = z.strictObject({
  id: ZWebhookId,
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_DELIVERIES_LISTED)
    .default(MAX_DELIVERIES_LISTED)
    .describe(`Deliveries to return, newest first (1–${MAX_DELIVERIES_LISTED})`),
});

// Like `id`: any string is looked up, so a malformed delivery id is simply not found.
export const ZDeliveryParams = z.strictObject({ id: ZWebhookId, deliveryId: ZIdOf('delivery', 'from webhooks_deliveries') });

export const ZRecoverInput = z.strictObject({
  since: ZTimestamp.describe('Re-queue deliveries whose last attempt failed at or after this time'),
});

export const ZRecoverResult = z
  .object({
    requeued: z.number().int().describe('Failed deliveries sent again by this call, each as a new delivery'),
    remaining: z.number().int().describe('Further failed deliveries in the window, left for another call (at most 1000 are re-queued per call)'),
  })
  .meta({ id: 'WebhookRecovery', description: 'What a recovery re-queued, and what is left for another call.' });
export type RecoverResultDto = z.infer<typeof ZRecoverResult>;
