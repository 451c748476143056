// @herald/sdk: a typed client for Herald's public REST API v1.
export { createHerald, WORKSPACE_HEADER, IDEMPOTENCY_HEADER } from './client.js';
export { HeraldError } from './errors.js';
export { verifyWebhook, WebhookVerificationError, SIGNATURE_HEADER, EVENT_HEADER, DELIVERY_HEADER, } from './webhooks.js';
