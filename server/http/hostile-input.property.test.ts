// Property: whatever a client sends to any route — wrong JSON types, NUL and other Unicode
// edge cases, malformed ids, oversized values, odd headers — Herald never answers 5xx, always
// answers a shape the OpenAPI document declares for that route (the envelope with one of the
// route's catalogue codes, or the flat body), and writes nothing when it refuses. Routes are
// read from the OpenAPI document: a route added later is covered without editing this file.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { ERROR_CATALOGUE, REASON_PHRASES, type ErrorCode } from '@/server/errors/catalogue';
import { LocalDiskStorage, setMediaStorageForTests } from '@/server/media/storage';
import type { ApiResponse } from '@/server/testing/api-client';
import { contractRoutes, type ContractRoute } from '@/server/testing/contract-routes';
import { hostileRequest, type RequestContext } from '@/server/testing/hostile-arbitraries';
import { createWorkspace } from '@/server/testing/fixtures';
import { publishingWorkspace, readyMedia } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();
const routes = contractRoutes();
/**
 * Requests per route: 16 routes × 80 keeps the file to a few seconds. Set
 * HERALD_PROPERTY_RUNS (e.g. 2000) for a deeper run; a failure prints its seed and path.
 */
const RUNS_PER_ROUTE = Number(process.env.HERALD_PROPERTY_RUNS ?? 80);

let storageDir: string;
let base: { workspaceId: string; secret: string; connectionIds: string[] };
const savedLimit = process.env.RATE_LIMIT_PER_MINUTE;

beforeAll(async () => {
  process.env.RATE_LIMIT_PER_MINUTE = '1000000';
  storageDir = mkdtempSync(path.join(os.tmpdir(), 'herald-hostile-'));
  setMediaStorageForTests(new LocalDiskStorage({ root: storageDir, baseUrl: api.baseUrl(), secret: 'hostile-input-test' }));
  const { workspace, secret, ok } = await publishingWorkspace();
  base = { workspaceId: workspace.id, secret, connectionIds: [ok.linkedin.id, ok.twitter.id] };
});

/** Fresh resources for each route, so that one route's successes (a detach, a publish) leave the next route real ids to work on. */
async function freshContext(): Promise<RequestContext> {
  const managed = await createWorkspace({ managedById: base.workspaceId });
  const media = await readyMedia(base.workspaceId);
  const post = (await api('POST', '/posts', { key: base.secret, body: { content: 'Existing', connectionIds: base.connectionIds.slice(0, 1) } })).body.data as {
    id: string;
  };
  return {
    secret: base.secret,
    idsByCollection: { posts: post.id, workspaces: managed.id, media: media.id, connections: base.connectionIds[0]! },
    workspaceIds: [managed.id, base.workspaceId],
    knownFields: { connectionIds: base.connectionIds, contentType: 'image/png', content: 'Hello' },
    preferredKeys: ['linkedin', 'twitter'],
  };
}
afterAll(() => {
  setMediaStorageForTests(undefined);
  rmSync(storageDir, { recursive: true, force: true });
  if (savedLimit === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
  else process.env.RATE_LIMIT_PER_MINUTE = savedLimit;
});

/** Rows of every table a request may write, in one round trip. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = ['Workspace', 'Membership', 'ApiKey', 'Connection', 'Post', 'PostTarget', 'MediaAsset', 'IdempotencyRecord', 'OutboxEvent'];
  const rows = await db.$queryRawUnsafe<Record<string, number>[]>(`SELECT ${tables.map((t) => `(SELECT count(*)::int FROM "${t}") AS "${t}"`).join(', ')}`);
  return rows[0]!;
}

const statusesOf = (code: ErrorCode): number[] => {
  const entry = ERROR_CATALOGUE[code] as { status: number; altStatuses?: readonly number[] };
  return [entry.status, ...(entry.altStatuses ?? [])];
};

/** Why the answer is not one the document declares for the route; undefined when it is. */
function undocumented(route: ContractRoute, res: ApiResponse<unknown>): string | undefined {
  if (res.status >= 500) return `a ${res.status}`;
  if (!route.statuses.includes(res.status)) return `status ${res.status} is not documented for the route`;
  if (res.status < 300) return res.status === 204 && res.text !== '' ? 'a 204 with a body' : undefined;
  const body = res.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return 'an error without a JSON body';
  if ('error' in body && typeof body.error === 'object' && body.error !== null) {
    const error = body.error as Record<string, unknown>;
    const code = error.code as ErrorCode;
    if (Object.keys(body).length !== 1) return 'extra keys beside error';
    if (Object.keys(error).some((k) => !['code', 'message', 'field'].includes(k))) return 'extra keys in error';
    if (!(code in ERROR_CATALOGUE) || ERROR_CATALOGUE[code].shape !== 'envelope') return `code ${String(code)} is not an envelope code of the catalogue`;
    if (!route.errorCodes.includes(code)) return `code ${code} is not documented for the route`;
    if (!statusesOf(code).includes(res.status)) return `code ${code} with status ${res.status}`;
    if (typeof error.message !== 'string' || (error.field !== undefined && typeof error.field !== 'string')) return 'message/field types';
    return undefined;
  }
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'error,message,statusCode') return `neither envelope nor flat body (${keys})`;
  if (body.statusCode !== res.status || body.error !== REASON_PHRASES[res.status]) return 'flat body statusCode/error mismatch';
  const message = body.message;
  if (res.status === 400 ? !(Array.isArray(message) && message.every((m) => typeof m === 'string')) : typeof message !== 'string') return 'flat message type';
  return undefined;
}

describe('hostile input on every route', () => {
  it('reads the routes from the contract document', () => {
    expect(routes.length).toBeGreaterThanOrEqual(16);
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: never a 5xx, always a documented answer, nothing written on refusal',
    async (_name, route) => {
      const ctx = await freshContext();
      await fc.assert(
        fc.asyncProperty(hostileRequest(route, ctx), async (req) => {
          const before = await rowCounts();
          const res = await api(req.method, req.path, { headers: req.headers, rawBody: req.rawBody });
          const problem = undocumented(route, res);
          if (problem) throw new Error(`${problem}: ${res.status} ${res.text.slice(0, 300)}\n  request: ${req.note}`);
          if (res.status >= 400) {
            const after = await rowCounts();
            if (JSON.stringify(after) !== JSON.stringify(before)) {
              throw new Error(`refused with ${res.status} but wrote: ${JSON.stringify(before)} → ${JSON.stringify(after)}\n  request: ${req.note}`);
            }
          }
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    },
    60_000,
  );
});
