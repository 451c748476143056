// Listmonk against its documented campaigns API, served by the local HTTPS stand-in through the
// guarded client:
//   https://listmonk.app/docs/apis/campaigns/#post-apicampaigns (create: { data: { id, … } })
//   https://listmonk.app/docs/apis/campaigns/#put-apicampaignscampaign_idstatus (start: running)
//   https://listmonk.app/docs/apis/campaigns/#get-apicampaigns (the newest campaigns)
//   https://listmonk.app/docs/apis/apis/#authentication (Authorization: token user:token)
import { describe, expect, it } from 'vitest';
import { PlatformError, TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import type { AttemptIntent } from '../reconcile';
import { createListmonkPublisher } from './listmonk-publisher';
import { createListmonkReconciler } from './listmonk-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const CREDENTIALS = 'herald:s3cr3t-t0ken';
const connection = () =>
  liveConnection('listmonk', {
    externalId: 'news.heraldcoffee.example#list-3',
    accountName: 'news.heraldcoffee.example → Herald Coffee news',
    accessToken: CREDENTIALS,
    platformData: { serverUrl: 'https://news.heraldcoffee.example', listId: 3, listName: 'Herald Coffee news', apiUser: 'herald' },
  });
const publisher = () => publishing(createListmonkPublisher({ fetch: api.fetch, baseUrl: api.baseUrl }));
const TEXT = '# Our winter blend is back\n\nRoasted on Tuesday, in the shop from Friday.';

describe('Listmonk publishing', () => {
  it('creates a Markdown campaign to the list, subject from the first line and images below, then starts it', async () => {
    api.on('POST', '/api/campaigns', { json: f('campaign-created') });
    api.on('PUT', '/api/campaigns/12/status', { json: f('campaign-running') });

    const result = await publisher().publish(connection(), {
      content: TEXT,
      mediaUrls: ['https://cdn.herald.example/m/beans.jpg'],
      mediaKinds: ['image'],
      settings: { tags: ['seasonal'] },
    });

    expect(result).toEqual({ postedId: '12', permalink: `${api.baseUrl}/admin/campaigns/12` });
    const [create] = api.calls('POST', '/api/campaigns');
    expect(create!.headers.authorization).toBe(`token ${CREDENTIALS}`);
    expect(create!.json()).toEqual({
      name: 'Our winter blend is back',
      subject: 'Our winter blend is back',
      lists: [3],
      type: 'regular',
      content_type: 'markdown',
      body: 'Roasted on Tuesday, in the shop from Friday.\n\n![Image 1](https://cdn.herald.example/m/beans.jpg)',
      messenger: 'email',
      tags: ['seasonal'],
    });
    expect(api.calls('PUT', '/api/campaigns/12/status')[0]!.json()).toEqual({ status: 'running' });
  });

  it('leaves a draft when told, with the subject given', async () => {
    api.on('POST', '/api/campaigns', { json: f('campaign-created') });
    await publisher().publish(connection(), { content: 'Roasted on Tuesday.', mediaUrls: [], settings: { subject: 'Winter blend', send: false } });
    expect(api.calls('POST', '/api/campaigns')[0]!.json()).toMatchObject({ subject: 'Winter blend', body: 'Roasted on Tuesday.' });
    expect(api.calls('PUT', '/api/campaigns/12/status')).toHaveLength(0);
  });

  it('passes Listmonk’s refusal on verbatim', async () => {
    api.on('POST', '/api/campaigns', { status: 400, json: f('error-invalid-subject') });
    const error = await failure(publisher().publish(connection(), { content: TEXT, mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toBe('Invalid length for `subject`');
  });

  it('says which campaign was created when Listmonk refuses to start it, so nobody sends it twice', async () => {
    api.on('POST', '/api/campaigns', { json: f('campaign-created') });
    api.on('PUT', '/api/campaigns/12/status', { status: 400, json: f('error-no-subscribers') });
    const error = await failure(publisher().publish(connection(), { content: TEXT, mediaUrls: [], settings: {} }));
    expect(error.message).toBe(
      `Listmonk created campaign 12 but did not start it: Campaign has no subscribers to send to. Start it in Listmonk (${api.baseUrl}/admin/campaigns/12), or delete it before sending the post again.`,
    );
  });

  it('reports refused credentials as a connection to reconnect', async () => {
    api.on('POST', '/api/campaigns', { status: 403, json: f('error-invalid-credentials') });
    const error = await failure(publisher().publish(connection(), { content: TEXT, mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('invalid API credentials');
  });

  it('waits out a rate limit, then creates the campaign once', async () => {
    api.on('POST', '/api/campaigns', { status: 429, headers: { 'retry-after': '0' }, json: { message: 'too many requests' } }, { json: f('campaign-created') });
    api.on('PUT', '/api/campaigns/12/status', { json: f('campaign-running') });
    const result = await publisher().publish(connection(), { content: TEXT, mediaUrls: [], settings: {} });
    expect(result.postedId).toBe('12');
    expect(api.calls('POST', '/api/campaigns')).toHaveLength(2);
  });

  it('refuses a video before calling Listmonk', async () => {
    const error = await failure(
      publisher().publish(connection(), { content: TEXT, mediaUrls: ['https://cdn.herald.example/m/v.mp4'], mediaKinds: ['video'], settings: {} }),
    );
    expect(error.message).toBe('Herald sends images in a Listmonk campaign, not videos');
    expect(api.requests).toHaveLength(0);
  });
});

describe('Listmonk reconcile', () => {
  const reconciler = () => createListmonkReconciler({ fetch: api.fetch, baseUrl: api.baseUrl });
  const ctx = () => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T09:35:00Z') });
  const intent = (settings: Record<string, unknown> = {}, content = TEXT): AttemptIntent => ({
    idempotencyKey: 'target-1',
    content,
    mediaUrls: [],
    settings,
    startedAt: new Date('2026-11-27T09:30:00Z'),
  });

  it('finds the campaign with the subject sent, to the list, since the attempt began, without creating anything', async () => {
    api.on('GET', '/api/campaigns', { json: f('campaigns') });
    const settled = await reconciler().reconcile(connection(), intent(), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: '12', permalink: `${api.baseUrl}/admin/campaigns/12` },
      evidence: expect.stringContaining('Listmonk campaign 12 (running'),
    });
    const [read, ...more] = api.requests;
    expect(more).toHaveLength(0);
    expect(Object.fromEntries(read!.query)).toEqual({ order_by: 'created_at', order: 'DESC', page: '1', per_page: '50' });
  });

  it('absent when none of the server’s campaigns carries the subject', async () => {
    api.on('GET', '/api/campaigns', { json: f('campaigns') });
    const settled = await reconciler().reconcile(connection(), intent({ subject: 'Holiday hours' }), ctx());
    expect(settled).toEqual({ outcome: 'absent', evidence: expect.stringContaining('None of the server’s 2 most recent Listmonk campaigns') });
  });

  it('a campaign created but never started is for a person', async () => {
    const draft = structuredClone(f('campaigns'));
    draft.data.results[0].status = 'draft';
    api.on('GET', '/api/campaigns', { json: draft });
    const settled = await reconciler().reconcile(connection(), intent(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('Listmonk campaign 12 carries the subject sent but is still a draft') });
    // A draft was what the post asked for: found.
    expect((await reconciler().reconcile(connection(), intent({ send: false }), ctx())).outcome).toBe('found');
  });

  it('unknown, with Listmonk’s words, when it cannot be read', async () => {
    api.on('GET', '/api/campaigns', { status: 403, json: f('error-invalid-credentials') });
    expect(await reconciler().reconcile(connection(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'Listmonk could not be asked: invalid API credentials',
    });
  });
});
