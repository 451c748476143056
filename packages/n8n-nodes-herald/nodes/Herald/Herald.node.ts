// The Herald node: posts, media, connections, analytics and the inbox through Herald's public
// REST API (/public/v1). Programmatic style (an execute method), because a media upload is
// three requests (upload URL → PUT of the bytes → complete) and every write carries an
// Idempotency-Key of its own.
import type {
  IDataObject,
  IExecuteFunctions,
  ILoadOptionsFunctions,
  INodeExecutionData,
  INodePropertyOptions,
  INodeType,
  INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { heraldList, heraldRequest } from './transport';
import { properties } from './properties';

type Handler = (ctx: IExecuteFunctions, i: number) => Promise<IDataObject | IDataObject[]>;

/** Herald answers `{ data: … }`; the node outputs what is inside. */
const unwrap = (body: IDataObject): IDataObject | IDataObject[] => (body && 'data' in body ? (body.data as IDataObject | IDataObject[]) : body);

const str = (ctx: IExecuteFunctions, name: string, i: number, fallback?: string) => String(ctx.getNodeParameter(name, i, fallback) ?? '').trim();

/** A comma- or newline-separated list parameter, or an array. */
function list(value: unknown): string[] {
  const values = Array.isArray(value) ? value : String(value ?? '').split(/[\n,]/);
  return values.map((v) => String(v).trim()).filter(Boolean);
}

/** Drops empty strings and empty arrays, so an unset filter is not sent. */
function compact(fields: IDataObject): IDataObject {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '' && v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)));
}

function writeKey(ctx: IExecuteFunctions, i: number): string | undefined {
  const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
  return options.idempotencyKey ? String(options.idempotencyKey) : undefined;
}

async function listed(ctx: IExecuteFunctions, i: number, path: string, qs: IDataObject): Promise<IDataObject[]> {
  const returnAll = ctx.getNodeParameter('returnAll', i, false) as boolean;
  const limit = returnAll ? undefined : (ctx.getNodeParameter('limit', i, 50) as number);
  return heraldList(ctx, path, compact(qs), limit);
}

const postId = (ctx: IExecuteFunctions, i: number) => encodeURIComponent(str(ctx, 'postId', i));

const handlers: Record<string, Record<string, Handler>> = {
  post: {
    async create(ctx, i) {
      const extra = ctx.getNodeParameter('additionalFields', i, {}) as IDataObject;
      const thread = ctx.getNodeParameter('thread', i, {}) as { parts?: Array<{ content?: string; mediaIds?: string }> };
      const parts = (thread.parts ?? [])
        .filter((p) => String(p.content ?? '').trim())
        .map((p) => compact({ content: String(p.content).trim(), mediaIds: list(p.mediaIds) }));
      const body = compact({
        content: str(ctx, 'content', i),
        connectionIds: list(ctx.getNodeParameter('connectionIds', i)),
        scheduledAt: extra.scheduledAt ? new Date(String(extra.scheduledAt)).toISOString() : undefined,
        firstComment: extra.firstComment ? String(extra.firstComment).trim() : undefined,
        mediaIds: list(extra.mediaIds),
        mediaUrls: list(extra.mediaUrls),
        requireApproval: extra.requireApproval === true ? true : undefined,
        queue: extra.queue === true ? true : undefined,
        parts,
      });
      return unwrap(await heraldRequest(ctx, 'POST', '/posts', { body, idempotencyKey: writeKey(ctx, i) }));
    },
    async get(ctx, i) {
      return unwrap(await heraldRequest(ctx, 'GET', `/posts/${postId(ctx, i)}`));
    },
    async list(ctx, i) {
      return listed(ctx, i, '/posts', ctx.getNodeParameter('filters', i, {}) as IDataObject);
    },
    async publish(ctx, i) {
      return unwrap(await heraldRequest(ctx, 'POST', `/posts/${postId(ctx, i)}/publish`, { idempotencyKey: writeKey(ctx, i) }));
    },
    async cancel(ctx, i) {
      return unwrap(await heraldRequest(ctx, 'DELETE', `/posts/${postId(ctx, i)}`, { idempotencyKey: writeKey(ctx, i) }));
    },
    async retry(ctx, i) {
      return unwrap(await heraldRequest(ctx, 'POST', `/posts/${postId(ctx, i)}/retry`, { idempotencyKey: writeKey(ctx, i) }));
    },
  },
  media: {
    async upload(ctx, i) {
      const property = str(ctx, 'binaryPropertyName', i, 'data');
      const binary = ctx.helpers.assertBinaryData(i, property);
      const bytes = await ctx.helpers.getBinaryDataBuffer(i, property);
      const contentType = binary.mimeType;
      if (!/^(image|video)\//.test(contentType ?? '')) {
        throw new NodeOperationError(ctx.getNode(), `The binary property "${property}" is ${contentType || 'untyped'}: Herald takes images and videos`, {
          itemIndex: i,
        });
      }
      const name = str(ctx, 'fileName', i, '') || binary.fileName;
      const key = writeKey(ctx, i);
      const created = await heraldRequest<{ data: { id: string; upload: { url: string; method: string; headers: Record<string, string> } } }>(
        ctx,
        'POST',
        '/media/upload-url',
        {
          body: compact({ kind: contentType.startsWith('video/') ? 'video' : 'image', contentType, bytes: bytes.length, filename: name }),
          idempotencyKey: key && `${key}:upload-url`,
        },
      );
      const { id, upload } = created.data;
      // The upload URL is signed: it takes no API key.
      await ctx.helpers.httpRequest({
        method: upload.method as 'PUT',
        url: upload.url,
        headers: { ...upload.headers, 'Content-Length': String(bytes.length) },
        body: bytes,
        json: false,
      });
      return unwrap(await heraldRequest(ctx, 'POST', `/media/${encodeURIComponent(id)}/complete`, { idempotencyKey: key && `${key}:complete` }));
    },
    async list(ctx, i) {
      return listed(ctx, i, '/media', ctx.getNodeParameter('filters', i, {}) as IDataObject);
    },
  },
  connection: {
    async list(ctx) {
      return unwrap(await heraldRequest(ctx, 'GET', '/connections'));
    },
  },
  analytics: {
    async postMetrics(ctx, i) {
      return unwrap(await heraldRequest(ctx, 'GET', `/posts/${postId(ctx, i)}/metrics`));
    },
    async topPosts(ctx, i) {
      const options = ctx.getNodeParameter('topOptions', i, {}) as IDataObject;
      return unwrap(await heraldRequest(ctx, 'GET', '/analytics/top-posts', { qs: compact({ from: str(ctx, 'from', i), to: str(ctx, 'to', i), ...options }) }));
    },
    async adAccountSummary(ctx, i) {
      return unwrap(
        await heraldRequest(ctx, 'GET', '/metrics/summary', { qs: { accountId: str(ctx, 'accountId', i), from: str(ctx, 'from', i), to: str(ctx, 'to', i) } }),
      );
    },
  },
  inbox: {
    async list(ctx, i) {
      return listed(ctx, i, '/inbox', ctx.getNodeParameter('filters', i, {}) as IDataObject);
    },
    async reply(ctx, i) {
      const id = encodeURIComponent(str(ctx, 'itemId', i));
      return unwrap(await heraldRequest(ctx, 'POST', `/inbox/${id}/reply`, { body: { text: str(ctx, 'text', i) }, idempotencyKey: writeKey(ctx, i) }));
    },
  },
};

export class Herald implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Herald',
    name: 'herald',
    icon: 'file:herald.svg',
    group: ['output'],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: 'Schedule and publish social posts, upload media, read analytics and answer the inbox with Herald',
    defaults: { name: 'Herald' },
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'heraldApi', required: true }],
    properties,
  };

  methods = {
    loadOptions: {
      /** The workspace's connected accounts, for the post's account picker. */
      async getConnections(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
        const body = await heraldRequest<{ data: Array<{ id: string; platform?: string; displayName?: string; accountName?: string }> }>(
          this,
          'GET',
          '/connections',
        );
        return body.data.map((c) => ({ name: `${c.displayName ?? c.accountName ?? c.id} (${c.platform ?? 'account'})`, value: c.id }));
      },
    },
  };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const items = this.getInputData();
    const out: INodeExecutionData[] = [];
    for (let i = 0; i < items.length; i++) {
      const resource = this.getNodeParameter('resource', i) as string;
      const operation = this.getNodeParameter('operation', i) as string;
      const handler = handlers[resource]?.[operation];
      try {
        if (!handler) throw new NodeOperationError(this.getNode(), `Unknown operation ${resource}.${operation}`, { itemIndex: i });
        const result = await handler(this, i);
        out.push(...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(result), { itemData: { item: i } }));
      } catch (error) {
        if (this.continueOnFail()) {
          out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
          continue;
        }
        throw error;
      }
    }
    return [out];
  }
}
