// Importing 10,000 posts: the preview (every row checked with the create rules) and the
// import (all rows in one transaction, batched inserts, delivery jobs for the scheduled ones),
// through the same services the routes call, against a fresh database. Then the same file
// again (every row already imported: nothing written). Goal: preview + import under a minute.
// Rows: three accounts named by handle, a third with a variant, three in four scheduled over
// the coming weeks (the rest drafts), every tenth needing approval.
// Prints numbers; asserts no time.
//   npx tsx bench/post-import.ts   (ROWS=10000)
import { withBenchDatabase } from './bench-database';

const ROWS = Number(process.env.ROWS ?? 10_000);

function file(): string {
  const lines = ['content,accounts,variant.twitter,scheduledAt,requireApproval'];
  const start = Date.now() + 86_400_000;
  for (let i = 0; i < ROWS; i++) {
    const accounts = ['linkedin:bench-li', 'linkedin:bench-li; twitter:bench-tw', 'bench-fb'][i % 3];
    const variant = i % 3 === 1 ? `Short take ${i}` : '';
    const when = i % 4 === 3 ? '' : new Date(start + i * 60_000).toISOString();
    lines.push(`"Post ${i}: our roast of the week, ""brewed"" three ways, and a line
that breaks",${accounts},${variant},${when},${i % 10 === 0}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

await withBenchDatabase(async () => {
  const { db } = await import('@/server/db/client');
  const { previewImport, importPosts } = await import('@/server/posts/post-import');
  const ws = await db.workspace.create({ data: { name: 'Bench', slug: `bench-${Date.now()}` } });
  const expires = new Date(Date.now() + 30 * 86_400_000);
  for (const [platform, accountName] of [
    ['linkedin', 'bench-li'],
    ['twitter', 'bench-tw'],
    ['facebook', 'bench-fb'],
  ] as const) {
    await db.connection.create({
      data: { workspaceId: ws.id, platform, provider: 'sandbox', externalId: accountName, accountName, displayName: accountName, tokenExpiresAt: expires },
    });
  }
  const content = file();
  const input = { format: 'csv' as const, content };
  console.log(`${ROWS} rows, ${(Buffer.byteLength(content) / 1024 / 1024).toFixed(2)} MB of CSV`);

  let t = performance.now();
  const preview = await previewImport(ws.id, input);
  const previewMs = performance.now() - t;
  console.log(`preview: ${(previewMs / 1000).toFixed(2)} s (${Math.round(ROWS / (previewMs / 1000))} rows/s), totals ${JSON.stringify(preview.totals)}`);

  t = performance.now();
  const { result } = await importPosts(ws.id, input, { requester: async () => 'Bench' });
  const importMs = performance.now() - t;
  console.log(
    `import (checks again, then writes): ${(importMs / 1000).toFixed(2)} s (${Math.round(ROWS / (importMs / 1000))} rows/s), created ${result.created}`,
  );
  console.log(`preview + import: ${((previewMs + importMs) / 1000).toFixed(2)} s`);

  t = performance.now();
  const again = await importPosts(ws.id, input);
  const againMs = performance.now() - t;
  console.log(`same file again: ${(againMs / 1000).toFixed(2)} s, created ${again.result.created}, already imported ${again.result.alreadyImported}`);
  const [posts, targets] = await Promise.all([
    db.post.count({ where: { workspaceId: ws.id } }),
    db.postTarget.count({ where: { post: { workspaceId: ws.id } } }),
  ]);
  console.log(`in the database: ${posts} posts, ${targets} targets`);
});
