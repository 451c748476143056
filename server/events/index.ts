// Domain events: written to the outbox with the change that causes them, drained by a job.
export { DOMAIN_EVENT_FIELDS, DOMAIN_EVENT_TYPES, isDomainEventType, type DomainEventData, type DomainEventType } from './catalogue';
export { type OutboxConsumer, type OutboxConsumerContext, type OutboxEventRecord } from './consumers';
export { drainOutbox, type DrainOutboxOptions, type DrainOutboxResult } from './drain-outbox';
export { kickOutboxDrain, OUTBOX_DRAIN_KEY } from './kick-outbox';
export { recordEvent, type RecordEventInput } from './record-event';
