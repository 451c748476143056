// Dribbble against the documented API v2 shapes, served by the local HTTPS stand-in through the
// guarded client:
//   https://developer.dribbble.com/v2/shots/#create-a-shot (multipart fields, 202 Accepted with
//     Location, the image rules)
//   https://developer.dribbble.com/v2/#client-errors (422 { message, errors: [{ attribute, message }] })
//   https://developer.dribbble.com/v2/#rate-limiting (429, X-RateLimit-Reset)
//   https://developer.dribbble.com/v2/shots/#list-shots (reconcile)
import { describe, expect, it } from 'vitest';
import { makePng } from '@/server/media/testing/sample-images';
import { TokenExpiredError, type PublishRequest } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture, type RecordedRequest } from '../testing/fake-platform-api';
import { createDribbblePublisher, shotText } from './dribbble-publisher';
import { createDribbbleReconciler } from './dribbble-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const PNG = makePng(400, 300);
const connection = () =>
  liveConnection('dribbble', { externalId: '1', accountName: 'heraldcoffee', accessToken: 'dribbble_access_1', platformData: { login: 'heraldcoffee' } });
const publisher = () => publishing(createDribbblePublisher({ fetch: api.fetch, baseUrl: api.baseUrl }));
const created = () => ({ status: 202, headers: { location: 'https://api.dribbble.com/v2/shots/471756' } });
const shot = (settings: PublishRequest<'dribbble'>['settings'] = {}): PublishRequest<'dribbble'> => ({
  content: 'Winter blend label\nThe new bag for the winter blend.',
  mediaUrls: [`${api.baseUrl}/media/label.png`],
  mediaKinds: ['image'],
  settings,
  idempotencyKey: 'target-3',
});

/** The parts of a multipart/form-data request, in order, as [name, headers, body]. */
function parts(request: RecordedRequest): [string, string, Buffer][] {
  const boundary = /boundary=(.+)$/.exec(String(request.headers['content-type']))![1]!;
  return request.body
    .toString('latin1')
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((chunk) => {
      const split = chunk.indexOf('\r\n\r\n');
      const headers = chunk.slice(2, split);
      return [/name="([^"]+)"/.exec(headers)![1]!, headers, Buffer.from(chunk.slice(split + 4, -2), 'latin1')];
    });
}

describe('Dribbble publishing', () => {
  it('uploads the image with the title, description, tags and low profile, and reads the shot from the Location', async () => {
    api.on('GET', '/media/label.png', { headers: { 'content-type': 'image/png' }, body: PNG });
    api.on('POST', '/shots', created());
    const result = await publisher().publish(connection(), shot({ tags: ['coffee', 'packaging'], lowProfile: true }));

    expect(result).toEqual({ postedId: '471756', permalink: 'https://dribbble.com/shots/471756' });
    const [call] = api.calls('POST', '/shots');
    expect(call!.headers.authorization).toBe('Bearer dribbble_access_1');
    const sent = parts(call!);
    expect(sent.map(([name]) => name)).toEqual(['image', 'title', 'description', 'tags[]', 'tags[]', 'low_profile']);
    expect(sent[0]![1]).toContain('filename="label.png"');
    expect(sent[0]![1]).toContain('Content-Type: image/png');
    expect(sent[0]![2].equals(PNG)).toBe(true);
    expect(sent.slice(1).map(([, , body]) => body.toString('utf8'))).toEqual([
      'Winter blend label',
      'The new bag for the winter blend.',
      'coffee',
      'packaging',
      'true',
    ]);
  });

  it('takes the title from the setting, the whole text then being the description', () => {
    expect(shotText({ content: 'Winter blend label\nThe new bag.', settings: { title: 'Label study' } })).toEqual({
      title: 'Label study',
      description: 'Winter blend label\nThe new bag.',
    });
    expect(shotText({ content: 'Winter blend label', settings: {} })).toEqual({ title: 'Winter blend label', description: '' });
  });

  it('passes Dribbble’s refusal on verbatim, with the field it names', async () => {
    api.on('GET', '/media/label.png', { headers: { 'content-type': 'image/png' }, body: PNG });
    api.on('POST', '/shots', { status: 422, json: f('error-validation') });
    const error = await failure(publisher().publish(connection(), shot()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Validation failed: image must be exactly 400x300 or 1600x1200');
    expect(error.opts).toEqual({ status: 422 });
  });

  it('waits until X-RateLimit-Reset after a 429, then creates the shot once; reports one without a reset verbatim', async () => {
    api.on('GET', '/media/label.png', { headers: { 'content-type': 'image/png' }, body: PNG });
    const reset = String(Math.floor(Date.now() / 1000));
    api.on(
      'POST',
      '/shots',
      { status: 429, headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, json: f('error-rate-limit') },
      created(),
    );
    expect((await publisher().publish(connection(), shot())).postedId).toBe('471756');
    expect(api.calls('POST', '/shots')).toHaveLength(2);

    api.on('POST', '/shots', { status: 429, json: f('error-rate-limit') });
    const error = await failure(publisher().publish(connection(), shot()));
    expect(error.message).toBe('API rate limit exceeded.');
    expect(error.opts).toEqual({ status: 429 });
  });

  it('asks for a reconnect when Dribbble refuses the token (it grants no refresh token)', async () => {
    api.on('GET', '/media/label.png', { headers: { 'content-type': 'image/png' }, body: PNG });
    api.on('POST', '/shots', { status: 401, json: f('error-unauthorized') });
    const error = await failure(publisher().publish(connection(), shot()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Bad credentials.');
    expect(api.calls('POST', '/shots')).toHaveLength(1);
  });

  it('refuses what Dribbble would refuse before calling it', async () => {
    const none = await failure(publisher().publish(connection(), { ...shot(), mediaUrls: [], mediaKinds: [] }));
    expect(none.message).toBe('A Dribbble shot takes exactly one image');
    const untitled = await failure(publisher().publish(connection(), { ...shot(), content: '  ' }));
    expect(untitled.message).toBe('A Dribbble shot needs a title: give one, or start the text with it');
    api.on('GET', '/media/label.webp', { headers: { 'content-type': 'image/webp' }, body: PNG });
    const webp = await failure(publisher().publish(connection(), { ...shot(), mediaUrls: [`${api.baseUrl}/media/label.webp`] }));
    expect(webp.message).toBe('Dribbble takes a GIF, JPG or PNG image; this one is image/webp');
    expect(api.calls('POST', '/shots')).toHaveLength(0);
  });
});

describe('Dribbble reconcile', () => {
  const intent = (extra = {}) => ({
    idempotencyKey: 'target-3',
    content: 'Winter blend label\nThe new bag for the winter blend.',
    mediaUrls: [],
    settings: {},
    startedAt: new Date('2026-11-27T09:30:00Z'),
    ...extra,
  });
  const ctx = (now = '2026-11-27T10:00:00Z') => ({ tokens: new MemoryTokenStore(), now: new Date(now) });
  const reconciler = () => createDribbbleReconciler({ fetch: api.fetch, baseUrl: api.baseUrl });

  it('finds the shot published since the attempt began with the title sent', async () => {
    api.on('GET', '/user/shots', { json: f('user-shots') });
    const settled = await reconciler().reconcile(connection(), intent(), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: '471756', permalink: 'https://dribbble.com/shots/471756-Winter-blend-label' },
      evidence: expect.stringContaining('471756'),
    });
    const [read] = api.requests;
    expect(read!.headers.authorization).toBe('Bearer dribbble_access_1');
    expect(api.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('is absent when no shot carries the title, once processing would be over', async () => {
    api.on('GET', '/user/shots', { json: f('user-shots') });
    const settled = await reconciler().reconcile(connection(), intent({ content: 'Spring blend label' }), ctx());
    expect(settled.outcome).toBe('absent');
  });

  it('cannot tell soon after the attempt: a shot is listed only once processed', async () => {
    api.on('GET', '/user/shots', { json: f('user-shots') });
    const settled = await reconciler().reconcile(connection(), intent({ content: 'Spring blend label' }), ctx('2026-11-27T09:35:00Z'));
    expect(settled.outcome).toBe('unknown');
    expect(settled.evidence).toContain('only once it has processed it');
  });

  it('cannot tell when Dribbble cannot be asked', async () => {
    api.on('GET', '/user/shots', { status: 503, json: { message: 'Service Unavailable' } });
    const settled = await reconciler().reconcile(connection(), intent(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: 'Dribbble could not be asked: Service Unavailable' });
  });
});
