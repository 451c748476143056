// Herald Trigger: starts a workflow on Herald's webhook events. Activation registers an
// endpoint (POST /webhooks) for the chosen events at this node's webhook URL and keeps the
// endpoint's id and signing secret in the node's static data; deactivation deletes it. Each
// delivery is verified before the workflow runs: X-Service-Signature must be the hex
// HMAC-SHA256 of the raw body under the stored secret (compared in constant time), or the
// delivery is refused with 401 and nothing runs.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IDataObject, IHookFunctions, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { heraldRequest } from '../Herald/transport';

/** Herald's subscribable events (server/events/catalogue.ts; a test holds the two equal). */
export const HERALD_EVENTS = [
  'post.scheduled',
  'post.published',
  'post.failed',
  'post.approval_required',
  'post.approved',
  'post.evergreen_requeued',
  'post.thread_stopped',
  'connection.error',
  'workflow.run.completed',
  'workflow.run.failed',
  'proposal.staged',
  'proposal.confirmed',
  'comment.received',
  'comment.replied',
  'message.received',
  'review.received',
] as const;

export const SIGNATURE_HEADER = 'x-service-signature';

/** True when `signature` is the hex HMAC-SHA256 of `rawBody` under `secret`; constant-time. */
export function verifySignature(rawBody: Buffer | string, signature: unknown, secret: string): boolean {
  if (!secret) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest('hex');
  const received = String(Array.isArray(signature) ? signature[0] : (signature ?? ''))
    .trim()
    .toLowerCase();
  return received.length === expected.length && timingSafeEqual(Buffer.from(received), Buffer.from(expected));
}

interface StaticData extends IDataObject {
  endpointId?: string;
  secret?: string;
}

export class HeraldTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Herald Trigger',
    name: 'heraldTrigger',
    icon: 'file:herald.svg',
    group: ['trigger'],
    version: 1,
    subtitle: '={{$parameter["events"].join(", ")}}',
    description: 'Starts the workflow when Herald sends a webhook event (posts published or failed, comments received, …)',
    defaults: { name: 'Herald Trigger' },
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'heraldApi', required: true }],
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
    properties: [
      {
        displayName: 'Events',
        name: 'events',
        type: 'multiOptions',
        required: true,
        default: ['post.published'],
        description: 'The events that start the workflow',
        options: HERALD_EVENTS.map((e) => ({ name: e, value: e })),
      },
      {
        displayName: 'Endpoint Name',
        name: 'endpointName',
        type: 'string',
        default: 'n8n',
        description: 'The name of the webhook endpoint in Herald',
      },
    ],
  };

  webhookMethods = {
    default: {
      /** True while the endpoint this node registered still exists in Herald. */
      async checkExists(this: IHookFunctions): Promise<boolean> {
        const data = this.getWorkflowStaticData('node') as StaticData;
        if (!data.endpointId || !data.secret) return false;
        try {
          const found = await heraldRequest<{ data: { id: string; url: string } }>(this, 'GET', `/webhooks/${encodeURIComponent(data.endpointId)}`);
          if (found.data.url === this.getNodeWebhookUrl('default')) return true;
        } catch {
          // Gone (404) or unreadable: register anew.
        }
        delete data.endpointId;
        delete data.secret;
        return false;
      },
      async create(this: IHookFunctions): Promise<boolean> {
        const url = this.getNodeWebhookUrl('default');
        const events = this.getNodeParameter('events') as string[];
        const name = String(this.getNodeParameter('endpointName', 'n8n') || 'n8n');
        const created = await heraldRequest<{ data: { id: string; secret: string } }>(this, 'POST', '/webhooks', { body: { name, url, events } });
        const data = this.getWorkflowStaticData('node') as StaticData;
        data.endpointId = created.data.id;
        data.secret = created.data.secret;
        return true;
      },
      async delete(this: IHookFunctions): Promise<boolean> {
        const data = this.getWorkflowStaticData('node') as StaticData;
        if (data.endpointId) {
          try {
            await heraldRequest(this, 'DELETE', `/webhooks/${encodeURIComponent(data.endpointId)}`);
          } catch (error) {
            // Already deleted in Herald: nothing left to remove.
            if ((error as { httpCode?: string }).httpCode !== '404') return false;
          }
        }
        delete data.endpointId;
        delete data.secret;
        return true;
      },
    },
  };

  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    const req = this.getRequestObject();
    const data = this.getWorkflowStaticData('node') as StaticData;
    const raw = (req as { rawBody?: Buffer }).rawBody;
    if (!raw || !verifySignature(raw, req.headers[SIGNATURE_HEADER], data.secret ?? '')) {
      this.getResponseObject().status(401).json({ error: 'invalid signature' });
      return { noWebhookResponse: true };
    }
    const event = JSON.parse(raw.toString('utf8')) as IDataObject;
    return {
      workflowData: [
        this.helpers.returnJsonArray({
          ...event,
          deliveryId: req.headers['x-service-delivery'] ?? null,
        }),
      ],
    };
  }
}
