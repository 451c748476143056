// What a member reads before confirming a staged action: the post per account, its media and
// time in the workspace's zone, and what a destructive action takes away.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { usePublicApi } from '@/server/testing/public-api';
import { publishingWorkspace } from '@/server/testing/posts-fixtures';
import { previewProposal } from './proposal-preview';

const api = usePublicApi();

describe('previewProposal', () => {
  it('shows a post to create as each account will show it, in the workspace zone', async () => {
    const w = await publishingWorkspace();
    await db.workspace.update({ where: { id: w.workspace.id }, data: { timeZone: 'Asia/Kolkata' } });
    const preview = await previewProposal(w.workspace.id, 'posts_create', {
      content: 'Spring menu',
      connectionIds: [w.ok.linkedin.id, w.ok.twitter.id, 'c-not-here'],
      variants: { twitter: { content: 'Spring menu 🌱' } },
      scheduledAt: '2026-12-03T09:15:00.000Z',
      mediaUrls: ['https://cdn.example.com/menu.jpg'],
    });
    expect(preview.post).toEqual({
      accounts: [
        { name: w.ok.linkedin.displayName, platform: 'LinkedIn', text: 'Spring menu' },
        { name: w.ok.twitter.displayName, platform: 'X (Twitter)', text: 'Spring menu 🌱' },
        { name: 'an account not in this workspace', platform: 'unknown', text: 'Spring menu' },
      ],
      media: ['https://cdn.example.com/menu.jpg'],
      when: 'Thu 3 Dec 2026, 14:45 GMT+5:30',
      status: null,
    });
    expect(preview.consequence).toBeNull();
  });

  it('reads the post an action names afresh, says what a publish or a cancel takes away, and sees nothing of another workspace', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'Flash sale', connectionIds: [w.ok.linkedin.id, w.ok.facebook.id] } });
    const id = created.body.data.id as string;
    const publish = await previewProposal(w.workspace.id, 'posts_publish', { id });
    expect(publish.post?.accounts.map((a) => a.text)).toEqual(['Flash sale', 'Flash sale']);
    expect(publish.post?.when).toBeNull();
    expect(publish.consequence).toBe('Publishes now to 2 accounts, in public; a published post is not taken back from the networks.');
    expect((await previewProposal(w.workspace.id, 'posts_cancel', { id })).consequence).toMatch(/^Nothing will go out for 1 post, 2 accounts/);
    // An edit shows the post as it will be.
    expect((await previewProposal(w.workspace.id, 'posts_update', { id, content: 'Flash sale, today only' })).post?.accounts[0]?.text).toBe(
      'Flash sale, today only',
    );
    const other = await publishingWorkspace();
    expect(await previewProposal(other.workspace.id, 'posts_publish', { id })).toEqual({ post: null, consequence: null });
    expect((await previewProposal(w.workspace.id, 'webhooks_delete', { id: 'x' })).consequence).toMatch(/delivery log/);
  });
});
