// Importing and exporting posts against PostgreSQL over the REST facade: the CSV parser's
// edge cases, every problem of a file shown per row and column before anything is written,
// all or nothing (a row refused only when the import runs writes nothing either), a re-upload
// creating nothing new, workspaces kept apart, scopes, the queue, JSON, and the export read back.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { csvCell, parseCsv, readCell } from '@/server/shared/csv';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { MAX_BODY_BYTES } from '@/server/shared/http-limits';
import { MAX_IMPORT_BODY_BYTES } from './post-import.schemas';

const api = usePublicApi();

async function workspace(timeZone = 'Europe/Paris') {
  const w = await createWorkspaceWithKey();
  await db.workspace.update({ where: { id: w.workspace.id }, data: { timeZone } });
  const li = await createSandboxConnection(w.workspace.id, { platform: 'linkedin' });
  const tw = await createSandboxConnection(w.workspace.id, { platform: 'twitter' });
  await db.connection.update({ where: { id: li.id }, data: { accountName: 'acme-coffee', displayName: 'Acme Coffee' } });
  await db.connection.update({ where: { id: tw.id }, data: { accountName: 'acmecoffee', displayName: 'Acme Coffee' } });
  return { ...w, li, tw };
}

const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const postCount = (workspaceId: string) => db.post.count({ where: { workspaceId } });
const preview = (key: string, content: string, format = 'csv') => api('POST', '/posts/import/preview', { key, body: { format, content } });
const importFile = (key: string, content: string, format = 'csv') => api('POST', '/posts/import', { key, body: { format, content } });
const csv = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;
const exportCsv = (key: string, query = '') => fetch(`${api.baseUrl()}/public/v1/posts/export.csv${query}`, { headers: { authorization: `Bearer ${key}` } });

describe('the CSV parser', () => {
  it('reads quotes, doubled quotes, commas and line breaks inside fields, CRLF or LF, a BOM, and skips blank lines', () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""","two\r\nlines"\n\nplain,,"",\n"last"';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ['a', 'b', 'c'] },
      { line: 2, cells: ['x, y', 'say "hi"', 'two\r\nlines'] },
      { line: 5, cells: ['plain', '', '', ''] },
      { line: 6, cells: ['last'] },
    ]);
  });

  it('names the line of an unclosed quote and of text after a closing quote', () => {
    expect(() => parseCsv('a\n"open\nstill open')).toThrow(/line 2 is never closed/);
    expect(() => parseCsv('a\n"x"y')).toThrow(/Line 2: text after a closing quote/);
  });

  it('defuses spreadsheet formulas on the way out and reads exactly the same text back', () => {
    for (const text of ['=SUM(A1)', "'=SUM(A1)", '@mention', '-5 degrees', "it's", 'a,"b"\nc', "''+x"]) {
      const [record] = parseCsv(csvCell(text));
      expect(readCell(record!.cells[0]!)).toBe(text);
    }
    expect(csvCell('=1+1')).toBe("'=1+1");
  });
});

describe('the preview', () => {
  it('shows every problem of every row at its column, with the codes of POST /posts, and writes nothing', async () => {
    const s = await workspace();
    const file = csv(
      'content,accounts,variant.twitter,media,scheduledAt,platformSettings',
      `Fine post,linkedin:acme-coffee,,,${inDays(2)},`,
      `Unknown account and a past time,nobody-here,,,2020-01-01T09:00:00Z,`,
      `"${'x'.repeat(300)}",acmecoffee,,http://insecure.example/a.jpg,not a time,`,
      `Variant for an untargeted network,linkedin:acme-coffee,Short,,,"{""linkedin"":{""colour"":""red""}}"`,
      `A local time,Acme Coffee,,,2027-03-02 09:30,`,
    );
    const res = await preview(s.secret, file);
    expect(res.status, res.text).toBe(200);
    const rows = res.body.data.rows;
    expect(res.body.data.totals).toEqual({ rows: 5, ready: 1, invalid: 4, alreadyImported: 0 });
    expect(rows[0]).toMatchObject({ row: 1, line: 2, status: 'ready', when: 'at', problems: [] });
    expect(rows[0].accounts).toEqual([{ id: s.li.id, platform: 'linkedin', name: 'Acme Coffee' }]);
    const problems = (i: number) => rows[i].problems.map((p: { column: string; code: string }) => `${p.column}:${p.code}`);
    expect(problems(1)).toEqual(['accounts:CONNECTION_NOT_FOUND', 'scheduledAt:SCHEDULED_TIME_IN_PAST']);
    expect(problems(2)).toEqual(['media:MEDIA_URL_REFUSED', 'scheduledAt:VALIDATION_FAILED', 'content:CONTENT_TOO_LONG']);
    expect(rows[2].problems[2].message).toMatch(/allows 280 characters/);
    expect(problems(3)).toEqual(['variant.twitter:VALIDATION_FAILED', 'platformSettings:PLATFORM_SETTING_UNKNOWN']);
    // "Acme Coffee" is the display name of both accounts: ambiguous, so the row says how to name one.
    expect(problems(4)).toEqual(['accounts:VALIDATION_FAILED']);
    expect(rows[4].problems[0].message).toMatch(/linkedin:acme-coffee, twitter:acmecoffee/);
    expect(await postCount(s.workspace.id)).toBe(0);
  });

  it('reads a local time on the workspace’s clock, and "queue" as the posting queue', async () => {
    const s = await workspace('Asia/Kolkata');
    const res = await preview(
      s.secret,
      csv('content,accounts,scheduledAt', 'Local,linkedin:acme-coffee,2027-03-02 09:30', 'Queued,linkedin:acme-coffee,queue'),
    );
    expect(res.body.data.rows[0]).toMatchObject({ when: 'at', scheduledAt: '2027-03-02T04:00:00.000Z' });
    expect(res.body.data.rows[1]).toMatchObject({ when: 'queue', scheduledAt: null, status: 'ready' });
  });

  it('refuses a file it cannot read with VALIDATION_FAILED on content', async () => {
    const s = await workspace();
    for (const [content, message] of [
      [csv('content,accounts,colour', 'x,y,red'), /"colour" is not a column/],
      [csv('content', 'x'), /no accounts column/],
      ['content,accounts\r\n"unclosed,x', /never closed/],
    ] as const) {
      const res = await preview(s.secret, content);
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'content' });
      expect(res.body.error.message).toMatch(message);
    }
    expect((await preview(s.secret, '{"content":"x"}', 'json')).body.error.message).toMatch(/an array of posts/);
  });
});

describe('the import', () => {
  it('writes nothing when one row is bad, then imports the fixed file, and a re-upload creates nothing new', async () => {
    const s = await workspace();
    const good = [`First,linkedin:acme-coffee,${inDays(3)}`, `Second,acmecoffee; linkedin:acme-coffee,${inDays(4)}`, 'A draft,acmecoffee,'];
    const bad = await importFile(s.secret, csv('content,accounts,scheduledAt', ...good, 'Bad,nobody,'));
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.error.code).toBe('IMPORT_INVALID');
    expect(bad.body.error.message).toMatch(/1 of 4 rows cannot be imported, so nothing was imported \(row 4, accounts: No account “nobody”/);
    expect(await postCount(s.workspace.id)).toBe(0);

    const file = csv('content,accounts,scheduledAt', ...good);
    const ok = await importFile(s.secret, file);
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data).toMatchObject({ created: 3, alreadyImported: 0 });
    const posts = await db.post.findMany({ where: { workspaceId: s.workspace.id }, include: { targets: true }, orderBy: { content: 'asc' } });
    expect(posts.map((p) => [p.content, p.status, p.targets.length])).toEqual([
      ['A draft', 'draft', 1],
      ['First', 'scheduled', 1],
      ['Second', 'scheduled', 2],
    ]);
    const events = await db.outboxEvent.count({ where: { workspaceId: s.workspace.id, type: 'post.scheduled' } });
    expect(events).toBe(2);
    const counts = await api('GET', '/posts?status=scheduled', { key: s.secret });
    expect(counts.body.total).toBe(2);

    const again = await importFile(s.secret, file);
    expect(again.status, again.text).toBe(201);
    expect(again.body.data).toMatchObject({ created: 0, alreadyImported: 3 });
    expect(again.body.data.posts.map((p: { postId: string }) => p.postId).sort()).toEqual(ok.body.data.posts.map((p: { postId: string }) => p.postId).sort());
    expect((await preview(s.secret, file)).body.data.totals).toEqual({ rows: 3, ready: 0, invalid: 0, alreadyImported: 3 });
    expect(await postCount(s.workspace.id)).toBe(3);
  });

  it('refuses the whole file when a media URL fails only while importing, and keeps nothing', async () => {
    const s = await workspace();
    const file = csv('content,accounts,media', 'Fine,acmecoffee,', 'Unreachable picture,acmecoffee,https://herald-import-test.invalid/picture.jpg');
    expect((await preview(s.secret, file)).body.data.totals.ready).toBe(2);
    const res = await importFile(s.secret, file);
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.message).toMatch(/row 2, media:/);
    expect(await postCount(s.workspace.id)).toBe(0);
    expect(await db.mediaAsset.count({ where: { workspaceId: s.workspace.id } })).toBe(0);
  });

  it('refuses identical rows of one file, unless each has its own id', async () => {
    const s = await workspace();
    const dup = await preview(s.secret, csv('content,accounts', 'Same,acmecoffee', 'Same,acmecoffee'));
    expect(dup.body.data.rows[1].problems).toEqual([expect.objectContaining({ column: 'content', message: expect.stringMatching(/Same as row 1/) })]);
    const ok = await importFile(s.secret, csv('id,content,accounts', 'a-1,Same,acmecoffee', 'a-2,Same,acmecoffee'));
    expect(ok.body.data.created).toBe(2);
  });

  it('places rows marked queue in the next free slots, one after another', async () => {
    const s = await workspace();
    await api('PUT', '/queue/slots', { key: s.secret, body: { slots: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, time: '09:00' })) } });
    const res = await importFile(s.secret, csv('content,accounts,scheduledAt,queue', 'One,acmecoffee,queue,', 'Two,acmecoffee,,true'));
    expect(res.status, res.text).toBe(201);
    const posts = await db.post.findMany({ where: { workspaceId: s.workspace.id }, orderBy: { scheduledAt: 'asc' } });
    expect(posts.every((p) => p.queued && p.status === 'scheduled')).toBe(true);
    expect(new Set(posts.map((p) => p.scheduledAt!.getTime())).size).toBe(2);
  });

  it('reads JSON with the same columns (arrays and objects where CSV has text)', async () => {
    const s = await workspace();
    const rows = [
      {
        content: 'From JSON',
        accounts: ['linkedin:acme-coffee', s.tw.id],
        variants: { twitter: { content: 'Short' } },
        scheduledAt: inDays(5),
        requireApproval: true,
      },
      { content: 'Draft', accounts: 'acmecoffee', platformSettings: { twitter: { replyTo: '1858000000000000000' } } },
    ];
    const res = await importFile(s.secret, JSON.stringify(rows), 'json');
    expect(res.status, res.text).toBe(201);
    expect(res.body.warnings).toEqual([expect.objectContaining({ code: 'APPROVAL_REQUIRED' })]);
    const post = await db.post.findFirstOrThrow({ where: { workspaceId: s.workspace.id, content: 'From JSON' } });
    expect(post).toMatchObject({ variants: { twitter: { content: 'Short' } }, approvalStatus: 'pending', status: 'scheduled' });
  });

  it('keeps workspaces apart and answers to scopes', async () => {
    const s = await workspace();
    const other = await workspace();
    const foreign = await preview(s.secret, csv('content,accounts', `Theirs,${other.li.id}`));
    expect(foreign.body.data.rows[0].problems).toEqual([expect.objectContaining({ column: 'accounts', code: 'CONNECTION_NOT_FOUND' })]);
    // The same file in two workspaces is two imports: keys are per workspace.
    const file = csv('content,accounts', 'Shared file,acmecoffee');
    expect((await importFile(s.secret, file)).body.data.created).toBe(1);
    expect((await importFile(other.secret, file)).body.data.created).toBe(1);
    const exported = await (await exportCsv(other.secret)).text();
    expect(exported.split('\r\n').filter(Boolean)).toHaveLength(2);

    const reader = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    expect((await preview(reader.secret, file)).status).toBe(403);
    expect((await importFile(reader.secret, file)).status).toBe(403);
    expect((await exportCsv(reader.secret)).status).toBe(200);
    const writer = await createWorkspaceWithKey({ scopes: ['posts:write'] });
    expect((await exportCsv(writer.secret)).status).toBe(403);
  });
});

describe('the export', () => {
  it('answers the posts of a filter as CSV with their results, and reads back through the import', async () => {
    const s = await workspace();
    const file = csv(
      'content,accounts,variant.twitter,scheduledAt,requireApproval,platformSettings',
      `"Autumn menu, with ""quotes""\nand two lines",linkedin:acme-coffee; acmecoffee,=Short one,${inDays(6)},false,"{""linkedin"":{""visibility"":""PUBLIC""}}"`,
      '@Draft mention,acmecoffee,,,,',
    );
    expect((await importFile(s.secret, file)).status).toBe(201);
    const [published] = await db.post.findMany({ where: { workspaceId: s.workspace.id, content: '@Draft mention' } });
    const target = await db.postTarget.findFirstOrThrow({ where: { postId: published!.id } });
    await db.post.update({ where: { id: published!.id }, data: { status: 'published', publishedAt: new Date() } });
    await db.postTarget.update({ where: { id: target.id }, data: { status: 'published', publishedAt: new Date() } });
    // Publishing made its result row (a trigger); a reading arrives.
    await db.$executeRaw`UPDATE "PostTargetResult" SET "readingId" = gen_random_uuid(), "collectedAt" = now(), source = 'api', impressions = 120, reactions = 7, engagement = 7
      WHERE "targetId" = ${target.id}::uuid`;

    const res = await exportCsv(s.secret);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await res.text();
    const [header, ...records] = parseCsv(text);
    expect(header!.cells.slice(0, 7)).toEqual(['id', 'content', 'accounts', 'variant.twitter', 'media', 'scheduledAt', 'requireApproval']);
    const cell = (rec: { cells: string[] }, name: string) => rec.cells[header!.cells.indexOf(name)];
    const draft = records.find((r) => readCell(cell(r, 'content')!) === '@Draft mention')!;
    expect([cell(draft, 'status'), cell(draft, 'impressions'), cell(draft, 'reactions'), cell(draft, 'engagement'), cell(draft, 'reach')]).toEqual([
      'published',
      '120',
      '7',
      '7',
      '',
    ]);
    const filtered = await (await exportCsv(s.secret, '?status=scheduled')).text();
    expect(parseCsv(filtered)).toHaveLength(2);

    // Read back into the same workspace: every row is a post it already has.
    const back = await importFile(s.secret, text);
    expect(back.body.data).toMatchObject({ created: 0, alreadyImported: 2 });
    // Into another workspace with the same accounts: the same posts (the published one is not re-read: its time passed).
    const other = await workspace();
    const scheduledOnly = await (await exportCsv(s.secret, '?status=scheduled')).text();
    const copied = await importFile(other.secret, scheduledOnly);
    expect(copied.status, copied.text).toBe(201);
    const copy = await db.post.findFirstOrThrow({ where: { workspaceId: other.workspace.id } });
    const original = await db.post.findFirstOrThrow({ where: { workspaceId: s.workspace.id, status: 'scheduled' } });
    expect(copy).toMatchObject({
      content: original.content,
      variants: original.variants,
      platforms: original.platforms,
      scheduledAt: original.scheduledAt,
      platformSettings: original.platformSettings,
    });
    expect(copy.connectionIds).toEqual([other.li.id, other.tw.id]);
  });
});

describe('a large file over REST', () => {
  it('is read past the API’s general body limit up to the import’s own, and refused with 413 beyond it', async () => {
    const w = await workspace();
    // About 1.3 MB: over the general 1 MiB limit that every other route keeps.
    const rows = Array.from({ length: 500 }, (_, i) => `"Post ${i}: ${'a long and thoughtful paragraph about coffee '.repeat(55)}",linkedin:acme-coffee,`);
    const big = csv('content,accounts,scheduledAt', ...rows);
    expect(Buffer.byteLength(big)).toBeGreaterThan(MAX_BODY_BYTES);
    const res = await preview(w.secret, big);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect((res.body as { data: { rows: unknown[] } }).data.rows).toHaveLength(500);
    expect(await postCount(w.workspace.id)).toBe(0);

    const tooBig = await preview(w.secret, 'x'.repeat(MAX_IMPORT_BODY_BYTES));
    expect(tooBig.status).toBe(413);
    // Other routes keep the general limit.
    const post = await api('POST', '/posts', { key: w.secret, body: { content: 'x'.repeat(MAX_BODY_BYTES), connectionIds: [w.li.id] } });
    expect(post.status).toBe(413);
  });
});
