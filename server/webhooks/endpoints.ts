// Webhook endpoints: register, read, change, delete, rotate the secret.
import { db, type Tx } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isDomainEventType, type DomainEventType } from '@/server/events/catalogue';
import type { WebhookEndpoint } from '@/server/generated/prisma/client';
import { isUuid } from '@/server/shared/schemas';
import { cancelDeliveryJobs } from './delivery-jobs';
import { PING_EVENT } from './envelope';
import { failPendingDeliveries } from './pause';
import { generateSigningSecret, sealSecret } from './secrets';
import { webhookTransport } from './transport';
import { toEndpointDto } from './webhook-dto';
import type { CreateWebhookInput, UpdateWebhookInput, WebhookEndpointDto, WebhookEndpointWithSecretDto } from './webhooks.schemas';

export function endpointNotFound(): AppError {
  return new AppError('WEBHOOK_NOT_FOUND', 'No webhook endpoint with that id', { field: 'id' });
}

/** The endpoint, in this workspace only: another workspace's id is as unknown as one never issued. */
export async function findEndpoint(workspaceId: string, id: string, tx: Tx = db): Promise<WebhookEndpoint> {
  if (!isUuid(id)) throw endpointNotFound();
  const endpoint = await tx.webhookEndpoint.findFirst({ where: { id, workspaceId } });
  if (!endpoint) throw endpointNotFound();
  return endpoint;
}

/**
 * The URL rules (server/outbound): https only, no credentials, no localhost names, no private,
 * loopback, link-local or unique-local address in any spelling, and a host name must resolve
 * now, to public addresses only. Sends are checked again at connect time, address pinned.
 * Returns the URL as it will be called (WHATWG-normalised).
 */
async function allowedUrl(url: string): Promise<string> {
  const checked = await webhookTransport().check(url);
  if (!checked.ok) throw new AppError('WEBHOOK_URL_REFUSED', `The URL was refused: ${checked.reason}`, { field: 'url' });
  return checked.url.href;
}

function subscribableEvents(events: readonly string[]): DomainEventType[] {
  events.forEach((name, i) => {
    if (name === PING_EVENT) {
      throw new AppError('WEBHOOK_EVENT_UNKNOWN', 'ping cannot be subscribed: it is sent only by POST /webhooks/{id}/test', { field: `events[${i}]` });
    }
    if (!isDomainEventType(name)) throw new AppError('WEBHOOK_EVENT_UNKNOWN', `Unknown event "${name}": not in the event catalogue`, { field: `events[${i}]` });
  });
  return events as DomainEventType[];
}

export async function listEndpoints(workspaceId: string): Promise<WebhookEndpointDto[]> {
  const rows = await db.webhookEndpoint.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  return rows.map(toEndpointDto);
}

export async function getEndpoint(workspaceId: string, id: string): Promise<WebhookEndpointDto> {
  return toEndpointDto(await findEndpoint(workspaceId, id));
}

/**
 * The checks of a create or an edit before anything is written: the endpoint (for an edit),
 * the events, the URL. Also run before a call is staged (server/proposals/prechecks.ts).
 */
export async function checkEndpointChange(workspaceId: string, id: string | null, input: { url?: string; events?: readonly string[] }) {
  const events = input.events ? subscribableEvents(input.events) : undefined;
  if (id !== null) await findEndpoint(workspaceId, id);
  const url = input.url !== undefined ? await allowedUrl(input.url) : undefined;
  return { events, url };
}

export async function createEndpoint(workspaceId: string, input: CreateWebhookInput): Promise<WebhookEndpointWithSecretDto> {
  const checked = await checkEndpointChange(workspaceId, null, input);
  const events = checked.events!;
  const url = checked.url!;
  const secret = generateSigningSecret();
  const row = await db.webhookEndpoint.create({ data: { workspaceId, name: input.name, url, events, secretSealed: sealSecret(secret) } });
  return { ...toEndpointDto(row), secret };
}

/**
 * Only sent fields change. `active: false` pauses (pending retries fail with `Endpoint is
 * paused`); `active: true` on a paused endpoint resumes it and resets consecutiveFailures.
 */
export async function updateEndpoint(workspaceId: string, id: string, input: UpdateWebhookInput): Promise<WebhookEndpointDto> {
  const { events, url } = await checkEndpointChange(workspaceId, id, input);
  const now = webhookTransport().now();
  let cancelled: string[] = [];
  const row = await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ active: boolean }[]>`
      SELECT "active" FROM "WebhookEndpoint" WHERE "id" = ${id}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR NO KEY UPDATE`;
    if (!locked) throw endpointNotFound();
    const resuming = input.active === true && !locked.active;
    const pausing = input.active === false && locked.active;
    if (pausing) cancelled = await failPendingDeliveries(tx, id, now);
    return tx.webhookEndpoint.update({
      where: { id },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(url !== undefined ? { url } : {}),
        ...(events ? { events } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        ...(resuming ? { consecutiveFailures: 0 } : {}),
      },
    });
  });
  await cancelDeliveryJobs(cancelled);
  return toEndpointDto(row);
}

/** Deletes the endpoint and its delivery log. */
export async function deleteEndpoint(workspaceId: string, id: string): Promise<void> {
  await findEndpoint(workspaceId, id);
  const pending = await db.webhookDelivery.findMany({ where: { endpointId: id, status: 'pending' }, select: { id: true } });
  const { count } = await db.webhookEndpoint.deleteMany({ where: { id, workspaceId } });
  if (count === 0) throw endpointNotFound();
  await cancelDeliveryJobs(pending.map((d) => d.id));
}

/** A new secret; every later send, pending retries included, is signed with it only. */
export async function rotateSecret(workspaceId: string, id: string): Promise<WebhookEndpointWithSecretDto> {
  await findEndpoint(workspaceId, id);
  const secret = generateSigningSecret();
  const { count } = await db.webhookEndpoint.updateMany({ where: { id, workspaceId }, data: { secretSealed: sealSecret(secret) } });
  if (count === 0) throw endpointNotFound();
  return { ...toEndpointDto(await findEndpoint(workspaceId, id)), secret };
}
