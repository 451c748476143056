// Rows → wire shapes. Secrets never pass through here: only create and rotate add one.
import type { WebhookDelivery, WebhookEndpoint } from '@/server/generated/prisma/client';
import type { DomainEventType } from '@/server/events/catalogue';
import type { WebhookDeliveryDto, WebhookEndpointDto } from './webhooks.schemas';

export function toEndpointDto(e: WebhookEndpoint): WebhookEndpointDto {
  return {
    id: e.id,
    name: e.name,
    url: e.url,
    events: e.events as DomainEventType[],
    active: e.active,
    consecutiveFailures: e.consecutiveFailures,
    lastDeliveryAt: e.lastDeliveryAt?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export type DeliveryRow = Pick<
  WebhookDelivery,
  'id' | 'event' | 'attempt' | 'statusCode' | 'error' | 'nextAttemptAt' | 'deliveredAt' | 'createdAt' | 'payload'
>;

export function toDeliveryDto(d: DeliveryRow): WebhookDeliveryDto {
  return {
    id: d.id,
    event: d.event,
    attempt: d.attempt,
    statusCode: d.statusCode,
    error: d.error,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    payload: JSON.parse(d.payload) as Record<string, unknown>,
  };
}
