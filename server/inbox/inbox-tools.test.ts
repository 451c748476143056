// The inbox through the tool endpoint, with the protocol SDK's own client: an assistant lists
// and reads comments with the key's data and limits; its reply is staged, a member confirms
// it, and it goes out once; an action the network does not offer is refused with the reason
// before anything is staged.
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { closeJobs, startLocalRunner, type LocalRunner } from '@/server/jobs';
import { handleMcp } from '@/server/mcp/endpoint';
import { createCaller } from '@/server/root';
import { runnableJobs } from '@/server/runtime/job-handlers';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { testDatabaseUrl } from '@/server/testing/per-file-database';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import { publishedTarget } from '@/server/testing/posts-fixtures';
import { createRequestContext } from '@/server/trpc/context';
import { collectConnectionComments } from './collect-comments';

const outcomes = checkDocumentedOutcomes();
let server: TestServer;
let runner: LocalRunner;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ '/public/v1/mcp': handleMcp, '/public/v1': outcomes.handle });
  runner = await startLocalRunner({ connectionString: testDatabaseUrl(), definitions: runnableJobs, concurrency: 2, pollIntervalMs: 100 });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await runner.stop();
  await closeJobs();
  await server.close();
});

async function connect(secret: string) {
  const client = new Client({ name: 'herald-inbox-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/public/v1/mcp?toolsets=default,inbox', server.url), {
      requestInit: { headers: { Authorization: `Bearer ${secret}` } },
    }),
  );
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) return { error: JSON.parse((result.content[0] as { text: string }).text) as Record<string, any>, body: undefined };
  return { error: undefined, body: (result.structuredContent ?? {}) as Record<string, any> };
}

describe('inbox tools', () => {
  it('list and read with the key’s data; a reply is staged, confirmed by a member and sent once; hiding refused where the network has none', async () => {
    const w = await createWorkspaceWithKey();
    const conn = await createSandboxConnection(w.workspace.id, { platform: 'mastodon' });
    const { post } = await publishedTarget(w.workspace.id, conn.id, 'mastodon', new Date(Date.now() - 3 * 3_600_000), `sbx-${randomUUID()}`, 'Autumn menu');
    await collectConnectionComments(conn.id);

    const client = await connect(w.secret);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(
      expect.arrayContaining([
        'inbox_list',
        'inbox_get',
        'inbox_draft_reply',
        'inbox_discard_draft',
        'inbox_reply',
        'inbox_update',
        'inbox_hide',
        'inbox_delete',
        'inbox_like',
        'inbox_check',
        'inbox_response_times',
      ]),
    );
    const list = await call(client, 'inbox_list', { postId: post.id });
    const question = list.body!.data.find((i: { text: string }) => i.text.startsWith('Do you ship to Canada?'));
    expect(question).toMatchObject({ platform: 'mastodon', status: 'open', provenance: { source: 'sandbox' } });
    const read = await call(client, 'inbox_get', { id: question.id });
    // Mastodon offers no hiding (docs/inbox.md).
    expect(read.body!.data.actions.hide).toMatchObject({ offered: false, reason: expect.stringContaining('Mastodon') });
    const hide = await call(client, 'inbox_hide', { id: question.id });
    expect(hide.error).toMatchObject({ error: { code: 'ACTION_NOT_OFFERED' } });
    expect(await db.assistantProposal.count({ where: { workspaceId: w.workspace.id } })).toBe(0);

    const staged = await call(client, 'inbox_reply', { id: question.id, text: 'Yes, we ship to Canada.' });
    expect(staged.body!.staged).toMatchObject({ status: 'staged', toolName: 'inbox_reply', title: expect.stringContaining('Yes, we ship to Canada.') });
    expect(await db.inboxItem.count({ where: { inReplyToId: question.id } })).toBe(0);

    const user = await db.user.create({ data: { email: `owner-${randomUUID()}@example.com`, name: 'Owner' } });
    await db.membership.create({ data: { userId: user.id, workspaceId: w.workspace.id, role: 'owner' } });
    const staff = createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: user.id }));
    await staff.proposals.confirm({ id: staged.body!.staged.actionId });
    for (let i = 0; i < 300; i++) {
      const p = await db.assistantProposal.findUniqueOrThrow({ where: { id: staged.body!.staged.actionId } });
      if (p.status === 'executed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const replies = await db.inboxItem.findMany({ where: { inReplyToId: question.id } });
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ replyState: 'sent', fromAccount: true, text: 'Yes, we ship to Canada.' });
    expect(replies[0]!.writtenBy).toMatch(/API key/);
  });

  it('an assistant drafts a reply: stored at once, marked as the assistant’s, nothing staged or sent; a member sends it with the draft', async () => {
    const w = await createWorkspaceWithKey();
    const conn = await createSandboxConnection(w.workspace.id, { platform: 'mastodon' });
    const { post } = await publishedTarget(w.workspace.id, conn.id, 'mastodon', new Date(Date.now() - 3 * 3_600_000), `sbx-${randomUUID()}`, 'Autumn menu');
    await collectConnectionComments(conn.id);
    const client = await connect(w.secret);
    const list = await call(client, 'inbox_list', { postId: post.id });
    const question = list.body!.data.find((i: { text: string }) => i.text.startsWith('Do you ship to Canada?'));

    const drafted = await call(client, 'inbox_draft_reply', { id: question.id, text: 'Yes, we ship to Canada.' });
    expect(drafted.error).toBeUndefined();
    expect(drafted.body!.staged).toBeUndefined();
    expect(drafted.body!.data).toMatchObject({
      status: 'pending',
      text: 'Yes, we ship to Canada.',
      authoredBy: { assistant: true, name: expect.stringMatching(/API key/) },
    });
    expect(await db.assistantProposal.count({ where: { workspaceId: w.workspace.id } })).toBe(0);
    expect(await db.inboxItem.count({ where: { inReplyToId: question.id } })).toBe(0);
    // Over Mastodon's 500 characters: refused as a reply would be.
    expect((await call(client, 'inbox_draft_reply', { id: question.id, text: 'x'.repeat(501) })).error).toMatchObject({ error: { code: 'CONTENT_TOO_LONG' } });
    // Another workspace's item is not found.
    const other = await createWorkspaceWithKey();
    const stranger = await connect(other.secret);
    expect((await call(stranger, 'inbox_draft_reply', { id: question.id, text: 'Hi' })).error).toMatchObject({ error: { code: 'INBOX_ITEM_NOT_FOUND' } });

    const read = await call(client, 'inbox_get', { id: question.id });
    expect(read.body!.data.drafts).toEqual([expect.objectContaining({ id: drafted.body!.data.id, authoredBy: expect.objectContaining({ assistant: true }) })]);

    // A member sends it (in the app: "Use this draft", then Send): one reply, the draft marked sent.
    const user = await db.user.create({ data: { email: `member-${randomUUID()}@example.com`, name: 'Dana' } });
    await db.membership.create({ data: { userId: user.id, workspaceId: w.workspace.id, role: 'member' } });
    const staff = createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: user.id }));
    const sent = await staff.inbox.reply({ id: question.id, text: 'Yes, we ship to Canada!', draftId: drafted.body!.data.id });
    expect(sent.data).toMatchObject({ reply: { state: 'sent', writtenBy: 'Dana' } });
    expect(await db.inboxItem.count({ where: { inReplyToId: question.id } })).toBe(1);
    expect(await db.inboxDraft.findUniqueOrThrow({ where: { id: drafted.body!.data.id } })).toMatchObject({ status: 'sent', sentReplyId: sent.data.id });
  });
});
