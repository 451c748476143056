// The Medium adapter against Medium's API v1 as documented (https://github.com/Medium/medium-api-docs,
// "3.3. Posts": the request, the 201 Post in its data envelope, the 400/401/403 errors). Errors
// come as { errors: [{ message, code }] } (github.com/Medium/medium-sdk-go, medium.go); the
// messages in fixtures/ are the documented descriptions of each status, since the documentation
// quotes no error body.
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createMediumPublisher } from './medium-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const USER = '5303d74c64f66366f00cb9b2a94f3251bf5';
const connection = (platformData: Record<string, unknown> = { userId: USER, username: 'heraldcoffee' }) =>
  liveConnection('medium', { externalId: USER, accountName: '@heraldcoffee', accessToken: 'medium-token', platformData });
const publisher = () => publishing(createMediumPublisher({ fetch: api.fetch, baseUrl: api.baseUrl }));
const PROFILE_POSTS = `/v1/users/${USER}/posts`;

describe('medium publishing', () => {
  it('creates the story on the profile: title heading, lead image, Markdown body, further images, three tags', async () => {
    api.on('POST', PROFILE_POSTS, { status: 201, json: f('post-created') });
    const result = await publisher().publish(connection(), {
      content: '# Latte art in 30 seconds\n\nSteam the milk to 60 °C, tilt the cup and pour.',
      mediaUrls: ['https://cdn.heraldcoffee.example/latte.jpg', 'https://cdn.heraldcoffee.example/pour.jpg'],
      mediaKinds: ['image', 'image'],
      settings: { tags: ['coffee', 'barista', '#coffee', 'latte art'], canonicalUrl: 'https://heraldcoffee.example/blog/latte-art', notifyFollowers: false },
    });
    expect(result).toEqual({ postedId: 'e6f36a', permalink: 'https://medium.com/@heraldcoffee/latte-art-in-30-seconds-e6f36a' });
    const [call] = api.calls('POST', PROFILE_POSTS);
    expect(call!.headers.authorization).toBe('Bearer medium-token');
    expect(call!.json()).toEqual({
      title: 'Latte art in 30 seconds',
      contentFormat: 'markdown',
      content:
        '# Latte art in 30 seconds\n\n![](https://cdn.heraldcoffee.example/latte.jpg)\n\nSteam the milk to 60 °C, tilt the cup and pour.\n\n![](https://cdn.heraldcoffee.example/pour.jpg)',
      publishStatus: 'public',
      tags: ['coffee', 'barista', 'latte art'],
      canonicalUrl: 'https://heraldcoffee.example/blog/latte-art',
      notifyFollowers: false,
    });
  });

  it('creates a draft under the publication connected, and an unlisted story when asked', async () => {
    api.on('POST', '/v1/publications/b45573563f5a/posts', { status: 201, json: f('post-created') });
    const writer = connection({ userId: USER, publicationId: 'b45573563f5a', publicationName: 'Barista Notes', role: 'writer' });
    await publisher().publish(writer, { content: 'Body', mediaUrls: [], settings: { title: 'Given', published: false } });
    expect(api.calls('POST', '/v1/publications/b45573563f5a/posts')[0]!.json()).toEqual({
      title: 'Given',
      contentFormat: 'markdown',
      content: '# Given\n\nBody',
      publishStatus: 'draft',
    });
    api.on('POST', PROFILE_POSTS, { status: 201, json: f('post-created') });
    await publisher().publish(connection(), { content: 'One line', mediaUrls: [], settings: { unlisted: true } });
    expect(api.calls('POST', PROFILE_POSTS)[0]!.json().publishStatus).toBe('unlisted');
  });

  it('refuses, before calling Medium, a publication writer’s published story and a video', async () => {
    const writer = connection({ userId: USER, publicationId: 'b45573563f5a', publicationName: 'Barista Notes', role: 'writer' });
    const published = await failure(publisher().publish(writer, { content: 'x', mediaUrls: [], settings: {} }));
    expect(published.message).toBe(
      'The account writes for Barista Notes as a writer: Medium takes a writer’s stories as drafts for an editor to publish. Set published to false.',
    );
    const video = await failure(
      publisher().publish(connection(), { content: 'x', mediaUrls: ['https://cdn.heraldcoffee.example/pour.mp4'], mediaKinds: ['video'], settings: {} }),
    );
    expect(video.message).toBe('Medium stories take images only; upload a video elsewhere and link it');
    expect(api.requests).toHaveLength(0);
  });
});

describe('medium errors', () => {
  it('records Medium’s refusal verbatim with its status', async () => {
    api.on('POST', PROFILE_POSTS, { status: 400, json: f('error-validation') });
    const error = await failure(publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('Required fields were invalid, not specified.');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('asks for a reconnect when the token is refused', async () => {
    api.on('POST', PROFILE_POSTS, { status: 401, json: f('error-unauthorized') });
    const error = await failure(publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('The access token is invalid or has been revoked.');
  });

  it('waits out a 429 for its Retry-After, then creates the story once', async () => {
    api.on('POST', PROFILE_POSTS, { status: 429, headers: { 'retry-after': '1' }, json: f('error-rate-limit') }, { status: 201, json: f('post-created') });
    const started = Date.now();
    const result = await publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} });
    expect(result.postedId).toBe('e6f36a');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(api.calls('POST', PROFILE_POSTS)).toHaveLength(2);
  });
});
