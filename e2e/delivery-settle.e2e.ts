// A delivery cut off mid-call, as the running app settles it and a member finishes it: the
// state a crash leaves (the post publishing under a dead owner, each account mid-call with what
// it sends recorded, the demo LinkedIn network holding the post it accepted) is written to the
// database; a publish call takes the delivery over and asks each network. LinkedIn is
// found; Slack and Discord cannot be asked, so a member settles them: "It went out" with the
// address they found, and "It did not go out: send it" after saying they checked.
import { expect, test } from './test';
import { check, VIEWPORTS } from './screen-check';
import { account, api, signIn, sql, tag } from './staff-fixtures';

test('an interrupted delivery: confirmed with the network where it can be asked, settled by a member where it cannot', async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const content = `Winter blend is back ${tag()}`;
  const linkedin = account('linkedin');
  const slack = account('slack');
  const discord = account('discord');
  const { data: post } = await api(request, 'POST', '/posts', { content, connectionIds: [linkedin.id, slack.id, discord.id] });

  // The crash: five minutes into calling every network, the owner died; the demo LinkedIn
  // network had accepted the post, the others' answers are unknown.
  await sql(
    `UPDATE "Post" SET "status" = 'publishing', "deliveryOwner" = 'dead-host/1/00000000', "deliveryLeaseUntil" = now() - interval '1 minute' WHERE "id" = $1`,
    [post.id],
  );
  await sql(
    `UPDATE "PostTarget" SET "status" = 'publishing', "attempts" = 1, "attemptStartedAt" = now() - interval '5 minutes',
       "attemptIntent" = jsonb_build_object('content', $2::text, 'mediaUrls', '[]'::jsonb, 'settings', '{}'::jsonb)
     WHERE "postId" = $1`,
    [post.id, content],
  );
  const { rows } = await sql(`SELECT "id", "connectionId" FROM "PostTarget" WHERE "postId" = $1`, [post.id]);
  const targetOf = (connectionId: string) => (rows as { id: string; connectionId: string }[]).find((r) => r.connectionId === connectionId)!.id;
  const origin = String(info.project.use.baseURL);
  await sql(`INSERT INTO "SandboxReceipt" ("connectionId", "idempotencyKey", "postedId", "permalink") VALUES ($1, $2, $3, $4)`, [
    linkedin.id,
    targetOf(linkedin.id),
    '7410000000000000001',
    `${origin}/demo-post/linkedin/7410000000000000001`,
  ]);

  // Publishing it again (as an integrator whose call was cut off would) takes the delivery
  // over at once, as the catch-up job does within a minute, and settles it by asking.
  const { data: taken } = await api(request, 'POST', `/posts/${post.id}/publish`);
  expect(taken.status).toBe('partial_published');

  await signIn(page);
  await page.goto(`/posts/${post.id}`);
  const row = (name: string) => page.getByTestId('target-row').filter({ hasText: name });
  await expect(row(linkedin.displayName).getByTestId('target-confirmed')).toContainText('Confirmed with LinkedIn after an interruption');
  await expect(row(linkedin.displayName).getByRole('link', { name: 'See the demo post' })).toHaveAttribute(
    'href',
    /\/demo-post\/linkedin\/7410000000000000001$/,
  );
  await expect(row(slack.displayName)).toContainText('Slack cannot be asked');
  // Nobody knows whether these went out: no button sends them all again.
  await expect(page.getByRole('button', { name: 'Retry failed accounts' })).toHaveCount(0);
  for (const viewport of ['desktop', 'mobile'] as const) {
    await page.setViewportSize(VIEWPORTS[viewport]);
    await check(page, 'post-settle', viewport);
  }
  await page.setViewportSize(VIEWPORTS.desktop);

  // Slack: the member found it in the channel.
  await row(slack.displayName).getByRole('button', { name: 'It went out' }).click();
  const where = page.getByRole('dialog', { name: 'Where is it on Slack?' });
  await where.getByLabel('The post’s address').fill('https://herald-demo.slack.com/archives/C0123456789/p1764240000000100');
  await where.getByRole('button', { name: 'Mark as published' }).click();
  await expect(page.getByText('Marked as published', { exact: true })).toBeVisible();
  await expect(row(slack.displayName).getByTestId('target-confirmed')).toBeVisible();

  // Discord: asks first; "Not yet" sends nothing.
  await row(discord.displayName)
    .getByRole('button', { name: `It did not go out: send it to ${discord.displayName}` })
    .click();
  const again = page.getByRole('dialog', { name: `Send it to ${discord.displayName} again?` });
  await expect(again).toContainText('if it did go out, the account will have it twice');
  await again.getByRole('button', { name: 'Not yet' }).click();
  await expect(again).toHaveCount(0);
  expect((await sql(`SELECT "attempts" FROM "PostTarget" WHERE "id" = $1`, [targetOf(discord.id)])).rows[0].attempts).toBe(1);
  await row(discord.displayName)
    .getByRole('button', { name: `It did not go out: send it to ${discord.displayName}` })
    .click();
  await page
    .getByRole('dialog', { name: `Send it to ${discord.displayName} again?` })
    .getByRole('button', { name: 'I checked: send it' })
    .click();
  await expect(row(discord.displayName).getByRole('link', { name: 'See the demo post' })).toBeVisible();

  const settled = (await api(request, 'GET', `/posts/${post.id}`)).data as unknown as {
    status: string;
    targets: { connectionId: string; status: string; attempts: number; confirmedAt: string | null; permalink: string | null }[];
  };
  expect(settled.status).toBe('published');
  const target = (id: string) => settled.targets.find((t) => t.connectionId === id)!;
  expect(target(linkedin.id)).toMatchObject({ status: 'published', attempts: 1, confirmedAt: expect.any(String) });
  expect(target(slack.id)).toMatchObject({
    status: 'published',
    attempts: 1,
    permalink: 'https://herald-demo.slack.com/archives/C0123456789/p1764240000000100',
  });
  expect(target(discord.id)).toMatchObject({ status: 'published', attempts: 2, confirmedAt: null });
});
