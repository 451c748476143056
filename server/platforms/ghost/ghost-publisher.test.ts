// The Ghost adapter against the Admin API as documented: https://docs.ghost.org/admin-api/#token-authentication
// (the HS256 token), #uploading-an-image, #creating-a-post, #sending-a-post-via-email and #errors;
// the bodies in fixtures/ follow the Post, image and error examples there.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createGhostPublisher } from './ghost-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const KEY_ID = '6489f2a1c2b3d40001a1b2c3';
const SECRET = 'a'.repeat(32) + '0123456789abcdef0123456789abcdef';
const connection = () =>
  liveConnection('ghost', {
    externalId: 'heraldcoffee.ghost.io#x',
    accountName: 'heraldcoffee.ghost.io',
    accessToken: `${KEY_ID}:${SECRET}`,
    platformData: {},
  });
const publisher = () => publishing(createGhostPublisher({ fetch: api.fetch, baseUrl: api.baseUrl }));
const POST = '/ghost/api/admin/posts/';
const UPLOAD = '/ghost/api/admin/images/upload/';

/** The token's parts, checked against the secret: what Ghost itself verifies. */
function verifiedToken(authorization: string | string[] | undefined) {
  const token = String(authorization).replace(/^Ghost /, '');
  const [header, payload, signature] = token.split('.');
  expect(createHmac('sha256', Buffer.from(SECRET, 'hex')).update(`${header}.${payload}`).digest('base64url')).toBe(signature);
  return { header: JSON.parse(Buffer.from(header!, 'base64url').toString()), payload: JSON.parse(Buffer.from(payload!, 'base64url').toString()) };
}

describe('ghost publishing', () => {
  it('uploads the images, then creates the post as HTML with the feature image, tags and the newsletter', async () => {
    api.on('GET', '/media/latte.jpg', { headers: { 'content-type': 'image/jpeg' }, body: Buffer.from('JPEGBYTES') });
    api.on('GET', '/media/pour.jpg', { headers: { 'content-type': 'image/jpeg' }, body: Buffer.from('JPEGBYTES2') });
    api.on(
      'POST',
      UPLOAD,
      { status: 201, json: f('image-uploaded') },
      { status: 201, json: { images: [{ url: 'https://heraldcoffee.ghost.io/content/images/2026/11/pour.jpg', ref: null }] } },
    );
    api.on('POST', POST, { status: 201, json: f('post-created') });

    const result = await publisher().publish(connection(), {
      content: 'Latte art in 30 seconds\n\nSteam the milk to 60 °C.\nTilt the cup & pour: https://heraldcoffee.example/guide',
      mediaUrls: [`${api.baseUrl}/media/latte.jpg`, `${api.baseUrl}/media/pour.jpg`],
      mediaKinds: ['image', 'image'],
      settings: { tags: ['Coffee'], sendAsNewsletter: true, newsletter: 'weekly', excerpt: 'Pour like a barista' },
    });

    expect(result).toEqual({ postedId: '6746a8f2b3c1d40001e9a7c2', permalink: 'https://heraldcoffee.ghost.io/latte-art-in-30-seconds/' });
    const [upload] = api.calls('POST', UPLOAD);
    const form = await new Response(new Uint8Array(upload!.body), { headers: { 'content-type': String(upload!.headers['content-type']) } }).formData();
    expect((form.get('file') as File).type).toBe('image/jpeg');
    expect(form.get('purpose')).toBe('image');
    const [post] = api.calls('POST', POST);
    expect(post!.query.get('source')).toBe('html');
    expect(post!.query.get('newsletter')).toBe('weekly');
    expect(post!.headers['accept-version']).toBe('v5.0');
    const { header, payload } = verifiedToken(post!.headers.authorization);
    expect(header).toEqual({ alg: 'HS256', kid: KEY_ID, typ: 'JWT' });
    expect(payload.aud).toBe('/admin/');
    expect(payload.exp - payload.iat).toBe(300);
    expect(post!.json()).toEqual({
      posts: [
        {
          title: 'Latte art in 30 seconds',
          html:
            '<p>Steam the milk to 60 °C.<br>Tilt the cup &amp; pour: <a href="https://heraldcoffee.example/guide">https://heraldcoffee.example/guide</a></p>\n' +
            '<figure class="kg-card kg-image-card"><img src="https://heraldcoffee.ghost.io/content/images/2026/11/pour.jpg" alt=""></figure>',
          status: 'published',
          feature_image: 'https://heraldcoffee.ghost.io/content/images/2026/11/latte.jpg',
          tags: [{ name: 'Coffee' }],
          custom_excerpt: 'Pour like a barista',
        },
      ],
    });
  });

  it('leaves a draft, without a newsletter, when asked', async () => {
    api.on('POST', POST, { status: 201, json: f('post-created') });
    await publisher().publish(connection(), { content: 'Body only', mediaUrls: [], settings: { title: 'Given', published: false } });
    const [post] = api.calls('POST', POST);
    expect(post!.query.get('newsletter')).toBeNull();
    expect(post!.json().posts[0]).toEqual({ title: 'Given', html: '<p>Body only</p>', status: 'draft' });
  });

  it('refuses a draft sent as a newsletter before calling Ghost', async () => {
    const error = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: { published: false, sendAsNewsletter: true } }));
    expect(error.message).toBe('A Ghost draft cannot be sent as a newsletter; publish it, or leave the newsletter off');
    expect(api.requests).toHaveLength(0);
  });
});

describe('ghost errors', () => {
  it('records Ghost’s validation error verbatim, message and context', async () => {
    api.on('POST', POST, { status: 422, json: f('error-validation') });
    const error = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('Validation error, cannot save post. Value in [posts.title] exceeds maximum length of 255 characters.');
    expect(error.opts).toEqual({ status: 422 });
  });

  it('asks for a reconnect when the Admin API key is refused', async () => {
    api.on('POST', POST, { status: 401, json: f('error-unauthorized') });
    const error = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Unknown Admin API Key');
  });

  it('asks for a reconnect when the stored key is not an Admin API key', async () => {
    const broken = { ...connection(), accessToken: 'not-a-key' };
    const error = await failure(publisher().publish(broken, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(api.requests).toHaveLength(0);
  });

  it('waits out a 429 for its Retry-After, then creates the post once', async () => {
    api.on('POST', POST, { status: 429, headers: { 'retry-after': '1' }, json: f('error-rate-limit') }, { status: 201, json: f('post-created') });
    const result = await publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} });
    expect(result.postedId).toBe('6746a8f2b3c1d40001e9a7c2');
    expect(api.calls('POST', POST)).toHaveLength(2);
  });
});
