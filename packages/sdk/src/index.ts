// @herald/sdk: a typed client for Herald's public REST API v1.
export { createHerald, WORKSPACE_HEADER, IDEMPOTENCY_HEADER, type Herald, type HeraldOptions } from './client.js';
export { HeraldError, type HeraldErrorCode, type FlatErrorCode } from './errors.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  SIGNATURE_HEADER,
  EVENT_HEADER,
  DELIVERY_HEADER,
  type VerifyOptions,
  type WebhookHeaders,
} from './webhooks.js';
export type { UploadInput, UploadOptions } from './media.js';
export type {
  CallOptions,
  ErrorCode,
  HttpMethod,
  ListItem,
  ListPaths,
  Operation,
  PathsFor,
  RequestOptions,
  Schemas,
  SuccessBody,
  WebhookEvent,
} from './types.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
