// The Bluesky adapter against the AT Protocol's documented XRPC calls
// (https://docs.bsky.app/docs/advanced-guides/posts, https://docs.bsky.app/docs/advanced-guides/post-richtext,
// https://docs.bsky.app/docs/api/com-atproto-repo-upload-blob, …/com-atproto-repo-create-record,
// …/com-atproto-identity-resolve-handle, …/com-atproto-server-refresh-session,
// https://docs.bsky.app/docs/advanced-guides/rate-limits).
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createBlueskyPublisher } from './bluesky-publisher';
import { recordKeyFor } from './bluesky-richtext';

const f = (name: string) => fixture(import.meta.dirname, name);
const DID = 'did:plc:z72i7hdynmk6r22z27h6tvur';
const DATA = { did: DID, handle: 'heraldcoffee.bsky.social', pds: 'https://morel.us-east.host.bsky.network' };
const api = useFakePlatformApi();
const connection = () =>
  liveConnection('bluesky', { externalId: DID, accountName: '@heraldcoffee.bsky.social', accessToken: 'access-jwt', platformData: DATA });
const publisher = () => createBlueskyPublisher({ fetch: api.fetch, baseUrl: api.baseUrl });
const media = (name: string) => `${api.baseUrl}/media/${name}`;
const xrpc = (nsid: string) => `/xrpc/${nsid}`;

describe('bluesky publishing', () => {
  it('uploads images as blobs with alt text and writes the post under the key derived from the target', async () => {
    api.on('GET', '/media/beans.jpg', { headers: { 'content-type': 'image/jpeg' }, body: Buffer.from('JPEGBYTES!') });
    api.on('POST', xrpc('com.atproto.repo.uploadBlob'), { json: f('upload-blob') });
    api.on('GET', xrpc('com.atproto.identity.resolveHandle'), { json: f('resolve-handle') });
    api.on('POST', xrpc('com.atproto.repo.createRecord'), { json: f('create-record') });
    const text = 'Fresh roast ✨ with @alice.bsky.social at https://heraldcoffee.example/roast #coffee';
    const rkey = recordKeyFor('target-1');

    const result = await publishing(publisher()).publish(connection(), {
      content: text,
      mediaUrls: [media('beans.jpg')],
      mediaKinds: ['image'],
      settings: { altTexts: ['A bag of beans'], languages: ['en'] },
      idempotencyKey: 'target-1',
    });

    expect(rkey).toMatch(/^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/);
    expect(result).toEqual({ postedId: `at://${DID}/app.bsky.feed.post/${rkey}`, permalink: `https://bsky.app/profile/heraldcoffee.bsky.social/post/${rkey}` });
    const upload = api.calls('POST', xrpc('com.atproto.repo.uploadBlob'))[0]!;
    expect(upload.headers.authorization).toBe('Bearer access-jwt');
    expect(upload.headers['content-type']).toBe('image/jpeg');
    expect(upload.text).toBe('JPEGBYTES!');
    expect(api.calls('GET', xrpc('com.atproto.identity.resolveHandle'))[0]!.query.get('handle')).toBe('alice.bsky.social');

    const body = api.calls('POST', xrpc('com.atproto.repo.createRecord'))[0]!.json();
    expect(body).toMatchObject({ repo: DID, collection: 'app.bsky.feed.post', rkey });
    const bytes = Buffer.from(text);
    const at = (s: string) => ({ byteStart: bytes.indexOf(s), byteEnd: bytes.indexOf(s) + Buffer.byteLength(s) });
    expect(body.record).toEqual({
      $type: 'app.bsky.feed.post',
      text,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      langs: ['en'],
      facets: [
        { index: at('@alice.bsky.social'), features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:ewvi7nxzyoun6zhxrhs64oiz' }] },
        { index: at('https://heraldcoffee.example/roast'), features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://heraldcoffee.example/roast' }] },
        { index: at('#coffee'), features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'coffee' }] },
      ],
      embed: { $type: 'app.bsky.embed.images', images: [{ alt: 'A bag of beans', image: f('upload-blob').blob }] },
    });
  });

  it('keeps an unresolvable mention as plain text', async () => {
    api.on('GET', xrpc('com.atproto.identity.resolveHandle'), { status: 400, json: f('error-handle-not-found') });
    api.on('POST', xrpc('com.atproto.repo.createRecord'), { json: f('create-record') });
    await publishing(publisher()).publish(connection(), { content: 'hi @nobody.example', mediaUrls: [], settings: {}, idempotencyKey: 't' });
    expect(api.calls('POST', xrpc('com.atproto.repo.createRecord'))[0]!.json().record.facets).toBeUndefined();
  });

  it('puts a video in app.bsky.embed.video', async () => {
    api.on('GET', '/media/clip.mp4', { headers: { 'content-type': 'video/mp4' }, body: Buffer.from('MP4BYTES') });
    api.on('POST', xrpc('com.atproto.repo.uploadBlob'), { json: { blob: { ...f('upload-blob').blob, mimeType: 'video/mp4' } } });
    api.on('POST', xrpc('com.atproto.repo.createRecord'), { json: f('create-record') });
    await publishing(publisher()).publish(connection(), {
      content: 'Pour',
      mediaUrls: [media('clip.mp4')],
      mediaKinds: ['video'],
      settings: {},
      idempotencyKey: 't',
    });
    expect(api.calls('POST', xrpc('com.atproto.repo.uploadBlob'))[0]!.headers['content-type']).toBe('video/mp4');
    expect(api.calls('POST', xrpc('com.atproto.repo.createRecord'))[0]!.json().record.embed).toEqual({
      $type: 'app.bsky.embed.video',
      video: { ...f('upload-blob').blob, mimeType: 'video/mp4' },
    });
  });

  it('adds a link card from the page’s Open Graph tags when there is no media', async () => {
    const page = `<html><head><meta property="og:title" content="Roast day"><meta property="og:description" content="Friday, 9 am">
      <meta property="og:image" content="/card.jpg"></head></html>`;
    api.on('GET', '/roast', { headers: { 'content-type': 'text/html' }, body: page });
    api.on('GET', '/card.jpg', { headers: { 'content-type': 'image/jpeg' }, body: Buffer.from('CARD') });
    api.on('POST', xrpc('com.atproto.repo.uploadBlob'), { json: f('upload-blob') });
    api.on('POST', xrpc('com.atproto.repo.createRecord'), { json: f('create-record') });
    await publishing(publisher()).publish(connection(), { content: `Roast day ${api.baseUrl}/roast`, mediaUrls: [], settings: {}, idempotencyKey: 't' });
    expect(api.calls('POST', xrpc('com.atproto.repo.createRecord'))[0]!.json().record.embed).toEqual({
      $type: 'app.bsky.embed.external',
      external: { uri: `${api.baseUrl}/roast`, title: 'Roast day', description: 'Friday, 9 am', thumb: f('upload-blob').blob },
    });
  });

  it('takes a record already written under the same key as the post (a retry after an unrecorded success)', async () => {
    api.on('POST', xrpc('com.atproto.repo.createRecord'), { status: 500, json: f('error-record-exists') });
    api.on('GET', xrpc('com.atproto.repo.getRecord'), { json: f('get-record') });
    const result = await publishing(publisher()).publish(connection(), { content: 'Once', mediaUrls: [], settings: {}, idempotencyKey: 'target-9' });
    expect(result.postedId).toBe(`at://${DID}/app.bsky.feed.post/${recordKeyFor('target-9')}`);
    expect(Object.fromEntries(api.calls('GET', xrpc('com.atproto.repo.getRecord'))[0]!.query)).toEqual({
      repo: DID,
      collection: 'app.bsky.feed.post',
      rkey: recordKeyFor('target-9'),
    });
  });
});

describe('bluesky errors and sessions', () => {
  it('records the PDS’s message verbatim with its status', async () => {
    api.on('POST', xrpc('com.atproto.repo.createRecord'), { status: 400, json: f('error-invalid-record') });
    api.on('GET', xrpc('com.atproto.repo.getRecord'), { status: 400, json: { error: 'RecordNotFound', message: 'Could not locate record' } });
    const error = await failure(publishing(publisher()).publish(connection(), { content: 'x', mediaUrls: [], settings: {}, idempotencyKey: 't' }));
    expect(error.message).toBe('Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('waits out a 429 until RateLimit-Reset, then posts', async () => {
    api.on(
      'POST',
      xrpc('com.atproto.repo.createRecord'),
      () => ({ status: 429, headers: { 'ratelimit-reset': String(Math.ceil(Date.now() / 1000)) }, json: f('error-rate-limit') }),
      { json: f('create-record') },
    );
    await publishing(publisher()).publish(connection(), { content: 'x', mediaUrls: [], settings: {}, idempotencyKey: 't' });
    expect(api.calls('POST', xrpc('com.atproto.repo.createRecord'))).toHaveLength(2);
  });

  it('refreshes an expired access JWT with the refresh JWT, stores the rotated pair, and posts', async () => {
    const { connection: row, tokens } = storedConnection('bluesky', {
      externalId: DID,
      accountName: '@heraldcoffee.bsky.social',
      accessToken: 'old-access',
      refreshToken: 'old-refresh',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('POST', xrpc('com.atproto.repo.createRecord'), { status: 400, json: f('error-expired-token') }, { json: f('create-record') });
    api.on('POST', xrpc('com.atproto.server.refreshSession'), { json: f('refresh-session') });

    await publishing(publisher(), tokens).publish({ ...row, platformData: DATA }, { content: 'x', mediaUrls: [], settings: {}, idempotencyKey: 't' });

    expect(api.calls('POST', xrpc('com.atproto.server.refreshSession'))[0]!.headers.authorization).toBe('Bearer old-refresh');
    expect(api.calls('POST', xrpc('com.atproto.repo.createRecord')).map((r) => r.headers.authorization)).toEqual([
      'Bearer old-access',
      `Bearer ${f('refresh-session').accessJwt}`,
    ]);
    const stored = tokens.get(row.id)!;
    expect(stored).toMatchObject({ accessToken: f('refresh-session').accessJwt, refreshToken: f('refresh-session').refreshJwt });
    // The access JWT's own exp, to the second.
    expect(Math.abs(stored.expiresAt!.getTime() - 4102448400_000)).toBeLessThanOrEqual(1000);
  });

  it('asks for a reconnect when the refresh JWT is refused too', async () => {
    const { connection: row, tokens } = storedConnection('bluesky', {
      externalId: DID,
      accountName: '@heraldcoffee.bsky.social',
      accessToken: 'old-access',
      refreshToken: 'old-refresh',
      tokenExpiresAt: new Date(Date.now() - 1000),
    });
    api.on('POST', xrpc('com.atproto.server.refreshSession'), { status: 400, json: f('error-expired-token') });
    const error = await failure(publishing(publisher(), tokens).publish({ ...row, platformData: DATA }, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Token has expired');
  });
});
