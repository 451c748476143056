// /webhooks: endpoints, their delivery log, redelivery, the test ping and recovery.
import { z } from 'zod';
import { readEnvelope, writeEnvelope } from '@/server/shared/schemas';
import { shorten } from '@/server/shared/text';
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import { listDeliveries, recoverDeliveries, redeliver, sendTestPing } from './deliveries';
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, rotateSecret, updateEndpoint } from './endpoints';
import {
  ZCreateWebhookInput,
  ZDeliveryParams,
  ZListDeliveriesQuery,
  ZRecoverInput,
  ZRecoverResult,
  ZUpdateWebhookInput,
  ZWebhookId,
  ZWebhookDelivery,
  ZWebhookEndpoint,
  ZWebhookEndpointWithSecret,
} from './webhooks.schemas';

const base = { scope: 'webhooks:manage' } as const satisfies Partial<HeraldMeta>;
const tags = ['Webhooks'];

export const webhooksRouter = router({
  list: apiProcedure
    .meta({
      ...base,
      openapi: {
        method: 'GET',
        path: '/webhooks',
        description:
          'Lists the workspace’s webhook endpoints with their subscriptions and health (active, consecutiveFailures, lastDeliveryAt). Secrets are never listed.',
        successDescription: 'The endpoints, without secrets.',
        tags,
        protect: true,
        summary: 'List webhook endpoints (secrets are never listed)',
      },
    })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZWebhookEndpoint)))
    .query(async ({ ctx }) => ({ data: await listEndpoints(ctx.actor.workspaceId) })),

  create: apiProcedure
    .meta({
      errorWhen: {
        WEBHOOK_URL_REFUSED:
          'The URL is not https, carries a user name or password, names localhost, or its host is a private, loopback, link-local or otherwise reserved address, or is a name that does not resolve or resolves to such an address; the message gives the reason.',
      },
      ...base,
      successStatus: 201,
      errors: ['WEBHOOK_URL_REFUSED', 'WEBHOOK_EVENT_UNKNOWN'],
      assistant: { stage: true, title: (a) => `Register webhook endpoint ${shorten(a.url, 80)} for ${Array.isArray(a.events) ? a.events.join(', ') : ''}` },
      openapi: {
        method: 'POST',
        path: '/webhooks',
        description:
          'Registers an HTTPS endpoint to receive signed notifications of the chosen events (their payloads are under Webhooks). The URL must be public https: it is checked now, on every change and before every send. The signing secret is in this answer only.',
        successDescription: 'Created: the endpoint with its signing secret, shown this once.',
        tags,
        protect: true,
        summary: 'Register an endpoint; its signing secret is returned this once',
      },
    })
    .input(ZCreateWebhookInput)
    .output(writeEnvelope(ZWebhookEndpointWithSecret))
    .mutation(async ({ ctx, input }) => ({ data: await createEndpoint(ctx.actor.workspaceId, input), warnings: [] })),

  get: apiProcedure
    .meta({
      ...base,
      errors: ['WEBHOOK_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/webhooks/{id}',
        description: 'Reads one webhook endpoint: its subscriptions and health. The secret is not included.',
        successDescription: 'The endpoint, without its secret.',
        tags,
        protect: true,
        summary: 'Read an endpoint',
      },
    })
    .input(z.strictObject({ id: ZWebhookId }))
    .output(readEnvelope(ZWebhookEndpoint))
    .query(async ({ ctx, input }) => ({ data: await getEndpoint(ctx.actor.workspaceId, input.id) })),

  update: apiProcedure
    .meta({
      errorWhen: {
        WEBHOOK_URL_REFUSED:
          'The new URL is not https, carries a user name or password, names localhost, or its host is a private, loopback, link-local or otherwise reserved address, or is a name that does not resolve or resolves to such an address; the message gives the reason.',
      },
      ...base,
      errors: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_URL_REFUSED', 'WEBHOOK_EVENT_UNKNOWN'],
      assistant: { stage: true, title: (a) => `Change webhook endpoint ${String(a.id)}` },
      openapi: {
        method: 'PATCH',
        path: '/webhooks/{id}',
        description:
          'Changes an endpoint’s name, URL or events (the list is replaced), or pauses (active false) and resumes (active true) it. Resuming resets consecutiveFailures to 0.',
        successDescription: 'The endpoint as changed.',
        tags,
        protect: true,
        summary: 'Change an endpoint; active true resumes a paused one, false pauses it',
      },
    })
    .input(ZUpdateWebhookInput.extend({ id: ZWebhookId }))
    .output(writeEnvelope(ZWebhookEndpoint))
    .mutation(async ({ ctx, input }) => {
      const { id, ...changes } = input;
      return { data: await updateEndpoint(ctx.actor.workspaceId, id, changes), warnings: [] };
    }),

  delete: apiProcedure
    .meta({
      ...base,
      successStatus: 204,
      errors: ['WEBHOOK_NOT_FOUND'],
      assistant: { stage: true, title: (a) => `Delete webhook endpoint ${String(a.id)} and its delivery log` },
      openapi: {
        method: 'DELETE',
        path: '/webhooks/{id}',
        description: 'Deletes a webhook endpoint and its delivery log; nothing more is sent to it.',
        successDescription: 'Deleted; no body.',
        tags,
        protect: true,
        summary: 'Delete an endpoint and its delivery log',
      },
    })
    .input(z.strictObject({ id: ZWebhookId }))
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteEndpoint(ctx.actor.workspaceId, input.id);
    }),

  rotateSecret: apiProcedure
    .meta({
      ...base,
      successStatus: 201,
      errors: ['WEBHOOK_NOT_FOUND'],
      assistant: { stage: true, title: (a) => `Rotate the signing secret of webhook endpoint ${String(a.id)}` },
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/rotate-secret',
        description:
          'Replaces an endpoint’s signing secret. Every later send, pending retries included, is signed with the new one, so update the receiver at once.',
        successDescription: 'Rotated: the endpoint with its new secret, shown this once.',
        tags,
        protect: true,
        summary: 'Replace the signing secret; every later send, pending retries included, uses the new one',
      },
    })
    .input(z.strictObject({ id: ZWebhookId }))
    .output(writeEnvelope(ZWebhookEndpointWithSecret))
    .mutation(async ({ ctx, input }) => ({ data: await rotateSecret(ctx.actor.workspaceId, input.id), warnings: [] })),

  deliveries: apiProcedure
    .meta({
      ...base,
      errors: ['WEBHOOK_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/webhooks/{id}/deliveries',
        description:
          'The delivery log of one endpoint, newest first: each delivery’s event, attempts, last status code or error, next attempt, and the exact payload sent. Use it to debug a receiver or pick a delivery to redeliver.',
        successDescription: 'The deliveries, newest first.',
        tags,
        protect: true,
        summary: 'The delivery log, newest first',
      },
    })
    .input(ZListDeliveriesQuery)
    .output(readEnvelope(z.array(ZWebhookDelivery)))
    .query(async ({ ctx, input }) => ({ data: await listDeliveries(ctx.actor.workspaceId, input.id, input.limit) })),

  redeliver: apiProcedure
    .meta({
      errorWhen: { VALIDATION_FAILED: { 409: 'The endpoint is paused: resume it (PATCH active true) first.' } },
      ...base,
      successStatus: 201,
      errors: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND'],
      assistant: { stage: true, reaches: 'receivers', title: (a) => `Send webhook delivery ${String(a.deliveryId)} again` },
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
        description:
          'Sends a past delivery again as a new delivery with the same payload bytes (and a new delivery id). Refused with 409 VALIDATION_FAILED while the endpoint is paused: resume it first.',
        successDescription: 'Queued: the new delivery.',
        tags,
        protect: true,
        summary: 'Send a past delivery again, as a new delivery with the same bytes (409 VALIDATION_FAILED while the endpoint is paused)',
      },
    })
    .input(ZDeliveryParams)
    .output(writeEnvelope(ZWebhookDelivery))
    .mutation(async ({ ctx, input }) => ({ data: await redeliver(ctx.actor.workspaceId, input.id, input.deliveryId), warnings: [] })),

  test: apiProcedure
    .meta({
      errorWhen: { VALIDATION_FAILED: { 409: 'The endpoint is paused: resume it (PATCH active true) first.' } },
      ...base,
      successStatus: 201,
      errors: ['WEBHOOK_NOT_FOUND'],
      assistant: { stage: true, reaches: 'receivers', title: (a) => `Send a test ping to webhook endpoint ${String(a.id)}` },
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/test',
        description:
          'Queues a signed `ping` to the endpoint, to check a receiver and its signature verification end to end. Refused with 409 VALIDATION_FAILED while the endpoint is paused.',
        successDescription: 'Queued: the ping’s delivery.',
        tags,
        protect: true,
        summary: 'Queue a signed ping (409 VALIDATION_FAILED while the endpoint is paused)',
      },
    })
    .input(z.strictObject({ id: ZWebhookId }))
    .output(writeEnvelope(ZWebhookDelivery))
    .mutation(async ({ ctx, input }) => ({ data: await sendTestPing(ctx.actor.workspaceId, input.id), warnings: [] })),

  recover: apiProcedure
    .meta({
      errorWhen: { VALIDATION_FAILED: { 409: 'The endpoint is paused: resume it (PATCH active true) first.' } },
      ...base,
      successStatus: 201,
      errors: ['WEBHOOK_NOT_FOUND'],
      assistant: {
        stage: true,
        reaches: 'receivers',
        title: (a) => `Send again every failed delivery of webhook endpoint ${String(a.id)} since ${String(a.since)}`,
        hint: 'At most 1000 per call (remaining says how many are left); resume a paused endpoint first.',
      },
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/recover',
        successDescription: 'Queued: how many deliveries were requeued and how many remain.',
        tags,
        protect: true,
        summary: 'Herald extension: send again everything that failed since a time',
        description:
          'Not part of the v1 contract. Every delivery of the endpoint whose last attempt failed at or after `since`, and that was not sent again already, is queued again as a new delivery with its stored bytes, oldest first, at most 1000 per call (`remaining` says how many are left). 409 VALIDATION_FAILED while the endpoint is paused: resume it first.',
      },
    })
    .input(ZRecoverInput.extend({ id: ZWebhookId }))
    .output(writeEnvelope(ZRecoverResult))
    .mutation(async ({ ctx, input }) => ({ data: await recoverDeliveries(ctx.actor.workspaceId, input.id, new Date(input.since)), warnings: [] })),
});
