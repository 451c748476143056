// Text PostgreSQL cannot store exactly (U+0000, unpaired surrogates) is refused with the flat
// schema 400 naming the field, from the one shared string schema — and every string input
// of every procedure uses it, so a field added later cannot forget it.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { db } from '@/server/db/client';
import { isLookupId, storableText } from '@/server/shared/schemas';
import { PLATFORM_CATALOGUE } from '@/server/platforms/catalogue';
import { appRouter } from '@/server/root';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { publishingWorkspace } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();
const REFUSED = 'must not contain the NUL character (U+0000) or an unpaired surrogate';

type Def = Record<string, any> & { type: string };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;
/** String formats whose own pattern already excludes control characters and surrogates. */
const SAFE_FORMATS = new Set(['datetime', 'date', 'time', 'uuid', 'guid', 'email']);

/** Every string leaf without the storable-text rule, and every `unknown` hole, by path. */
function audit(schema: z.ZodType, path: string, out: { unchecked: string[]; holes: string[] }, depth = 0): void {
  if (depth > 15) return;
  if (isLookupId(schema)) return; // looked up, never stored: anything is just not found
  const def = defOf(schema);
  const walk = (child: unknown, suffix: string): void => {
    if (child) audit(child as z.ZodType, `${path}${suffix}`, out, depth + 1);
  };
  switch (def.type) {
    case 'string':
      if (!def.checks?.includes(storableText) && !SAFE_FORMATS.has(def.format)) out.unchecked.push(path);
      return;
    case 'unknown':
    case 'any':
      out.holes.push(path);
      return;
    case 'object':
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) walk(v, `.${k}`);
      if (def.catchall && defOf(def.catchall).type !== 'never') walk(def.catchall, '.*');
      return;
    case 'array':
      walk(def.element, '[]');
      return;
    case 'record':
      walk(def.keyType, '{key}');
      walk(def.valueType, '.*');
      return;
    case 'union':
      def.options.forEach((o: unknown, i: number) => walk(o, `|${i}`));
      return;
    case 'intersection':
      walk(def.left, '&l');
      walk(def.right, '&r');
      return;
    case 'pipe':
      walk(def.in, '');
      walk(def.out, '');
      return;
    case 'lazy':
      walk(def.getter(), '');
      return;
    default:
      if (def.innerType) walk(def.innerType, '');
  }
}

describe('every string input refuses what PostgreSQL cannot store', () => {
  it('holds for every procedure of the router and every platform setting', () => {
    const out = { unchecked: [] as string[], holes: [] as string[] };
    const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { inputs: z.ZodType[] } }> } })._def.procedures;
    for (const [name, proc] of Object.entries(procedures)) for (const input of proc._def.inputs) audit(input, name, out);
    for (const [platform, entry] of Object.entries(PLATFORM_CATALOGUE))
      for (const [key, schema] of Object.entries(entry.settings.shape)) audit(schema as z.ZodType, `platformSettings.${platform}.${key}`, out);
    expect(out.unchecked).toEqual([]);
    // Values checked elsewhere, key by key: platformSettings by the platform catalogue (above).
    expect([...new Set(out.holes)].sort()).toEqual(['posts.create.platformSettings.*', 'posts.update.platformSettings.*']);
  });
});

describe('refusals through the API', () => {
  it('refuses NUL in a post’s content or variant with the flat 400 naming the field, writing nothing', async () => {
    const { workspace, secret, ok } = await publishingWorkspace();
    const content = await api('POST', '/posts', { key: secret, body: { content: 'Hello\u0000world', connectionIds: [ok.linkedin.id] } });
    expect(content.status).toBe(400);
    expect(content.body).toEqual({ statusCode: 400, message: [`content: ${REFUSED}`], error: 'Bad Request' });
    const variant = await api('POST', '/posts', {
      key: secret,
      body: { content: 'Hello', connectionIds: [ok.linkedin.id], variants: { linkedin: { content: '\u0000' } } },
    });
    expect(variant.body.message).toEqual([`variants.linkedin.content: ${REFUSED}`]);
    const lone = await api('POST', '/posts', {
      key: secret,
      rawBody: `{"content":"a\\ud800b","connectionIds":["${ok.linkedin.id}"]}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(lone.body.message).toEqual([`content: ${REFUSED}`]);
    const setting = await api('POST', '/posts', {
      key: secret,
      body: { content: 'Hello', connectionIds: [ok.facebook.id], platformSettings: { facebook: { firstComment: 'a\u0000' } } },
    });
    expect(setting.status).toBe(400);
    expect(setting.body.error).toMatchObject({ code: 'PLATFORM_SETTING_UNKNOWN', field: 'platformSettings.facebook.firstComment' });
    expect(await db.post.count({ where: { workspaceId: workspace.id } })).toBe(0);

    const created = await api('POST', '/posts', { key: secret, body: { content: 'Hello', connectionIds: [ok.linkedin.id] } });
    const edited = await api('PATCH', `/posts/${created.body.data.id}`, { key: secret, body: { content: 'x\u0000' } });
    expect(edited.body).toEqual({ statusCode: 400, message: [`content: ${REFUSED}`], error: 'Bad Request' });
  });

  it('refuses NUL in workspace and key names', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const ws = await api('POST', '/workspaces', { key: secret, body: { name: 'Acme\u0000' } });
    expect(ws.body).toEqual({ statusCode: 400, message: [`name: ${REFUSED}`], error: 'Bad Request' });
    const client = await api('POST', '/workspaces', { key: secret, body: { name: 'Client' } });
    const key = await api('POST', `/workspaces/${client.body.data.id}/api-keys`, { key: secret, body: { name: '\u0000key' } });
    expect(key.body).toEqual({ statusCode: 400, message: [`name: ${REFUSED}`], error: 'Bad Request' });
    expect(await db.workspace.count({ where: { managedById: workspace.id } })).toBe(1);
  });

  it('stores every other character exactly: emoji sequences, RTL and zero-width marks, astral planes', async () => {
    const { secret, ok } = await publishingWorkspace();
    const text = 'Family 👨‍👩‍👧‍👦 flag 🇫🇷 skin 👍🏽 RTL \u202Eabc\u202C \u200F zero\u200Bwidth \u200D joiner \uFEFF bom 𝔘𝔫𝔦 \u0001\u001f';
    const created = await api('POST', '/posts', { key: secret, body: { content: text, connectionIds: [ok.linkedin.id] } });
    expect(created.status).toBe(201);
    const read = await api('GET', `/posts/${created.body.data.id}`, { key: secret });
    expect(read.body.data.content).toBe(text);
  });
});
