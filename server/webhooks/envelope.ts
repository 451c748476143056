// The body of every delivery: `{ version, event, timestamp, data }`, serialised once. The
// string built here is stored on the delivery and is byte for byte what is signed, sent,
// retried and redelivered.
import { DOMAIN_EVENT_FIELDS, type DomainEventType } from '@/server/events/catalogue';

export const ENVELOPE_VERSION = '1';
export const PING_EVENT = 'ping';

/** The catalogue's fields, in its order; a field with no reading (missing, undefined, '') is null. */
export function eventData(type: DomainEventType, data: unknown): Record<string, unknown> {
  const source = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of DOMAIN_EVENT_FIELDS[type] as readonly string[]) {
    const value = source[field];
    out[field] = value === undefined || value === '' ? null : value;
  }
  return out;
}

export function serializeEnvelope(event: string, timestamp: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ version: ENVELOPE_VERSION, event, timestamp: timestamp.toISOString(), data });
}
