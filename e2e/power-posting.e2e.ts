// What power users post, as staff do it: a thread written in the composer and followed part by
// part in the delivery log (and continued from a part that failed); a blog's feed followed on
// the Feeds screen, its new item a draft with the item's image, a broken feed's error on its
// row; a published post repeated (evergreen); links shortened and counted (tracked links).
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { makePng } from '../server/media/testing/sample-images';
import { check, VIEWPORTS } from './screen-check';
import { expect, test } from './test';
import { receiverCert } from './receiver-cert';
import { account, api, signIn, sql, tag } from './staff-fixtures';
import type { Page } from '@playwright/test';

/** The toasts gone, the screen as a person sees it, then axe, the fit at 375 px and the screenshots. */
async function screens(page: Page, name: string) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  for (const viewport of ['desktop', 'mobile'] as const) {
    await page.setViewportSize(VIEWPORTS[viewport]);
    await check(page, name, viewport);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}

test('a thread: written with "Add to thread", each part’s address in the delivery log, continued from the part that failed', async ({ page }) => {
  const t = tag();
  await signIn(page);
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Agency \(X\)/ }).check();
  await page.getByRole('checkbox', { name: /Demo Agency \(Bluesky\)/ }).check();
  await page.getByLabel('Text', { exact: true }).fill(`1/3 Our autumn menu is here ${t}`);
  await page.getByRole('button', { name: 'Add to thread' }).click();
  await expect(page.getByLabel('Part 2 of the thread')).toBeFocused();
  await page.getByLabel('Part 2 of the thread').fill('2/3 Pumpkin spice is back.');
  await page.getByRole('button', { name: 'Add to thread' }).click();
  // Over Bluesky's limit: named with its part before saving.
  await page.getByLabel('Part 3 of the thread').fill('x'.repeat(301));
  await expect(page.getByTestId('limit-error').filter({ hasText: 'Part 3 of the thread: Bluesky allows 300 graphemes; this text counts 301' })).toBeVisible();
  await expect(page.getByTestId('part-1-counter-bluesky')).toContainText('301/300');
  await page.getByLabel('Part 3 of the thread').fill('3/3 See you Monday!');
  await expect(page.getByTestId('limit-error')).toHaveCount(0);
  await expect(page.getByText('Each part is posted as a reply to the one before on Bluesky, X (Twitter).')).toBeVisible();
  await page.getByRole('tab', { name: 'X (Twitter)' }).click();
  await expect(page.getByTestId('preview-twitter').getByRole('list', { name: 'The thread on X (Twitter)' })).toContainText('3/3 See you Monday!');
  await screens(page, 'compose-thread');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.waitForURL(/\/posts\/[0-9a-f-]{36}$/);
  const postId = page.url().split('/').at(-1)!;
  await expect(page.getByTestId('post-thread')).toContainText('2/3 Pumpkin spice is back.');

  await page.getByRole('button', { name: 'Publish now' }).click();
  const x = page.getByTestId('target-row').filter({ hasText: 'X (Twitter)' });
  const thread = x.getByRole('list', { name: 'The thread on X (Twitter)' });
  await expect(thread.getByRole('listitem')).toHaveCount(2);
  await expect(thread.getByRole('link', { name: /posted, see the demo post/ })).toHaveCount(2);

  // X refused part 3 (as a real network can): the thread stops there, the post is not whole.
  const xId = account('twitter').id;
  await sql(
    `UPDATE "PostThreadPart" p SET "status" = 'failed', "postedId" = NULL, "permalink" = NULL, "error" = 'Part 3: You are not permitted to perform this action.'
       FROM "PostTarget" t WHERE p."targetId" = t."id" AND t."postId" = $1 AND t."connectionId" = $2 AND p."position" = 3`,
    [postId, xId],
  );
  await sql(`UPDATE "Post" SET "status" = 'partial_published' WHERE "id" = $1`, [postId]);
  await page.reload();
  await expect(thread).toContainText('Part 3 of 3:not posted');
  await expect(x.getByLabel('X (Twitter)’s answer to part 3')).toHaveText('Part 3: You are not permitted to perform this action.');
  await screens(page, 'post-thread');
  await x.getByRole('button', { name: /Continue from part 3: / }).click();
  await expect(thread.getByRole('link', { name: /posted, see the demo post/ })).toHaveCount(2);

  const { data } = (await api(page.request, 'GET', `/posts/${postId}`)) as unknown as {
    data: { status: string; targets: { connectionId: string; attempts: number; thread: { position: number; status: string }[] }[] };
  };
  expect(data.status).toBe('published');
  const target = data.targets.find((tt) => tt.connectionId === xId)!;
  // Part 1 went once; the retry sent part 3 only.
  expect(target.attempts).toBe(1);
  expect(target.thread.map((p) => p.status)).toEqual(['posted', 'posted']);
});

/** A blog's feed on 127.0.0.1, with the certificate the server under test trusts. */
async function startBlog() {
  const { key, cert } = receiverCert(Number(process.env.E2E_PORT ?? 3107));
  const state = { status: 200, items: [] as { guid: string; title: string }[] };
  const png = makePng(1200, 630);
  let base = '';
  const server = https.createServer({ key, cert }, (req, res) => {
    if (req.url === '/cover.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      return void res.end(png);
    }
    if (state.status !== 200) {
      res.writeHead(state.status, { 'content-type': 'text/plain' });
      return void res.end('Service Unavailable');
    }
    const items = state.items
      .map(
        (i) => `<item><title>${i.title}</title><link>https://blog.acme-coffee.example/${i.guid}</link><guid isPermaLink="false">${i.guid}</guid>
        <description>From the roastery journal.</description><enclosure url="${base}/cover.png" length="${png.length}" type="image/png"/></item>`,
      )
      .join('');
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.end(
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Acme Coffee journal</title><link>https://blog.acme-coffee.example/</link><description>News</description>${items}</channel></rss>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { state, url: `${base}/feed.xml`, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

test('feeds: a blog followed, its new item a draft with the item’s image; a broken feed says why and pauses', async ({ page }) => {
  const t = tag();
  const blog = await startBlog();
  try {
    blog.state.items = [{ guid: `old-${t}`, title: 'An article from last week' }];
    await signIn(page);
    await page.goto('/feeds');
    await page.getByLabel('Feed address (RSS or Atom)').fill(blog.url);
    await page.getByRole('checkbox', { name: /Demo Agency \(LinkedIn\)/ }).check();
    await page.getByLabel('Post text').fill('New on the journal: {title} {link}');
    await page.getByRole('button', { name: 'Follow feed' }).click();
    const row = page.getByTestId('feed-row').filter({ hasText: blog.url });
    await expect(row).toContainText('Acme Coffee journal');
    await expect(row).toContainText('Active');

    // A new article: one draft, with the article's image; reading again makes nothing more.
    blog.state.items.unshift({ guid: `new-${t}`, title: `Our winter blend ${t}` });
    await row.getByRole('button', { name: /Check now: / }).click();
    await expect(page.getByText('1 new item posted')).toBeVisible();
    await row.getByRole('button', { name: /Check now: / }).click();
    await expect(page.getByText('No new items')).toBeVisible();
    const drafts = (await api(page.request, 'GET', `/posts?status=draft&search=${encodeURIComponent(`Our winter blend ${t}`)}`)) as unknown as {
      data: { content: string; mediaUrls: string[] }[];
    };
    expect(drafts.data).toHaveLength(1);
    expect(drafts.data[0]!.content).toBe(`New on the journal: Our winter blend ${t} https://blog.acme-coffee.example/new-${t}`);
    expect(drafts.data[0]!.mediaUrls).toHaveLength(1);

    // The blog goes down: the row says so; after its fifth failed read in a row it pauses.
    blog.state.status = 503;
    await sql(`UPDATE "Feed" SET "consecutiveFailures" = 4 WHERE "url" = $1`, [blog.url]);
    await row.getByRole('button', { name: /Check now: / }).click();
    await expect(row.getByTestId('feed-error')).toContainText('Paused after 5 failed reads in a row');
    await expect(row.getByTestId('feed-error')).toContainText('503');
    await expect(row).toContainText('Paused');
    await screens(page, 'feeds');
    blog.state.status = 200;
    await row.getByRole('button', { name: /Resume/ }).click();
    await expect(row).toContainText('Active');
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: /Stop following/ }).click();
    await expect(page.getByTestId('feed-row').filter({ hasText: blog.url })).toHaveCount(0);
  } finally {
    await blog.close();
  }
});

test('evergreen: a published post repeated through the queue, then stopped', async ({ page }) => {
  const t = tag();
  await signIn(page);
  const created = (await api(page.request, 'POST', '/posts', {
    content: `Our opening hours, all winter ${t}`,
    connectionIds: [account('linkedin').id],
  })) as unknown as { data: { id: string } };
  await api(page.request, 'POST', `/posts/${created.data.id}/publish`);
  await page.goto(`/posts/${created.data.id}`);
  const card = page.getByRole('region', { name: 'Repeat this post (evergreen)' });
  await card.getByLabel('Every how many days').fill('14');
  await card.getByLabel('At most (repeats, optional)').fill('3');
  await card.getByRole('button', { name: 'Repeat this post' }).click();
  await expect(card.getByTestId('evergreen-status')).toContainText('Repeats every 14 day(s)');
  await expect(card.getByTestId('evergreen-status')).toContainText('0 repeat(s) queued so far of at most 3');
  await screens(page, 'post-evergreen');
  await card.getByRole('button', { name: 'Stop repeating' }).click();
  await expect(card.getByTestId('evergreen-status')).toContainText('Stopped (stopped)');
});

test('tracked links: switched on in Settings, a post’s link goes out short and its click is counted', async ({ page }) => {
  const t = tag();
  await signIn(page);
  await page.goto('/settings');
  await page.getByLabel('Shorten and count links').check();
  await page.getByRole('textbox', { name: 'UTM parameters' }).fill('utm_source={network}&utm_medium=social&utm_campaign=winter');
  await page.getByRole('button', { name: 'Save tracked links' }).click();
  await expect(page.getByText('Tracked links saved')).toBeVisible();
  await screens(page, 'settings-tracked-links');
  try {
    const created = (await api(page.request, 'POST', '/posts', {
      content: `Winter menu ${t}: https://acme-coffee.example/menu`,
      connectionIds: [account('linkedin').id],
    })) as unknown as { data: { id: string } };
    await api(page.request, 'POST', `/posts/${created.data.id}/publish`);
    const links = (await api(page.request, 'GET', `/posts/${created.data.id}/links`)) as unknown as {
      data: { id: string; shortUrl: string; destination: string }[];
    };
    expect(links.data).toHaveLength(1);
    const [link] = links.data;
    expect(link!.destination).toBe('https://acme-coffee.example/menu?utm_source=linkedin&utm_medium=social&utm_campaign=winter');
    // A person following the link: sent on to the destination, no login.
    const followed = await page.request.get(link!.shortUrl, { maxRedirects: 0, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0' } });
    expect(followed.status()).toBe(302);
    expect(followed.headers()['location']).toBe(link!.destination);
    // A short code Herald never made: 404, never a redirect.
    const unknown = await page.request.get(link!.shortUrl.replace(/[^/]+$/, 'ZZZZZZZZZZ'), { maxRedirects: 0 });
    expect(unknown.status()).toBe(404);
    await expect
      .poll(async () => {
        const clicks = (await api(page.request, 'GET', `/links/${link!.id}/clicks`)) as unknown as { data: { total: number } };
        return clicks.data.total;
      })
      .toBe(1);
  } finally {
    await page.goto('/settings');
    await page.getByLabel('Shorten and count links').uncheck();
    await page.getByRole('button', { name: 'Save tracked links' }).click();
    await expect(page.getByText('Tracked links saved')).toBeVisible();
  }
});
