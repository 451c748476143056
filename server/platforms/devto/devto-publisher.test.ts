// The Dev.to adapter against the Forem API v1 as documented
// (https://developers.forem.com/api/v1#tag/articles/operation/createArticle: the request body
// and the 201/401/422 response samples); the bodies in fixtures/ follow those samples.
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { articleOf } from '../long-form';
import { createDevtoPublisher } from './devto-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const connection = () =>
  liveConnection('devto', { externalId: '1190032', accountName: '@heraldcoffee', accessToken: 'devto-key', platformData: { username: 'heraldcoffee' } });
const publisher = () => publishing(createDevtoPublisher({ fetch: api.fetch, baseUrl: api.baseUrl }));
const URL_OF_ARTICLE = 'https://dev.to/heraldcoffee/latte-art-in-30-seconds-4aca';

describe('devto publishing', () => {
  it('creates the article with the cover image, the further images in the body, tags and canonical URL', async () => {
    api.on('POST', '/api/articles', { status: 201, json: f('article-created') });
    const result = await publisher().publish(connection(), {
      content: '# Latte art in 30 seconds\n\nSteam the milk to 60 °C, tilt the cup and pour from high, then low.',
      mediaUrls: ['https://cdn.heraldcoffee.example/latte.jpg', 'https://cdn.heraldcoffee.example/pour.jpg'],
      mediaKinds: ['image', 'image'],
      settings: { tags: ['coffee', '#tutorial'], canonicalUrl: 'https://heraldcoffee.example/blog/latte-art', series: 'Barista basics' },
      idempotencyKey: 'target-1',
    });
    expect(result).toEqual({ postedId: '2094611', permalink: URL_OF_ARTICLE });
    const [call] = api.calls('POST', '/api/articles');
    expect(call!.headers['api-key']).toBe('devto-key');
    expect(call!.headers.accept).toBe('application/vnd.forem.api-v1+json');
    expect(call!.json()).toEqual({
      article: {
        title: 'Latte art in 30 seconds',
        body_markdown: 'Steam the milk to 60 °C, tilt the cup and pour from high, then low.\n\n![](https://cdn.heraldcoffee.example/pour.jpg)',
        published: true,
        tags: 'coffee, tutorial',
        main_image: 'https://cdn.heraldcoffee.example/latte.jpg',
        canonical_url: 'https://heraldcoffee.example/blog/latte-art',
        series: 'Barista basics',
      },
    });
  });

  it('takes the title setting over the first line, and leaves a draft when asked', async () => {
    api.on('POST', '/api/articles', { status: 201, json: f('article-created') });
    await publisher().publish(connection(), { content: 'First line\nSecond line', mediaUrls: [], settings: { title: 'Given title', published: false } });
    expect(api.calls('POST', '/api/articles')[0]!.json().article).toEqual({ title: 'Given title', body_markdown: 'First line\nSecond line', published: false });
  });

  it('refuses a video before calling DEV', async () => {
    const error = await failure(
      publisher().publish(connection(), { content: 'x', mediaUrls: ['https://cdn.heraldcoffee.example/pour.mp4'], mediaKinds: ['video'], settings: {} }),
    );
    expect(error.message).toBe('DEV articles take images only; upload a video elsewhere and link it');
    expect(api.requests).toHaveLength(0);
  });
});

describe('devto errors', () => {
  it('records DEV’s validation error verbatim with its status', async () => {
    api.on('POST', '/api/articles', { status: 422, json: f('error-validation') });
    const error = await failure(publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('Tag list exceed the maximum of 4 tags');
    expect(error.opts).toEqual({ status: 422 });
  });

  it('reads the older list form of the error too', async () => {
    api.on('POST', '/api/articles', { status: 422, json: { error: ["Title can't be blank", 'Body markdown is too long'], status: 422 } });
    const error = await failure(publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error.message).toBe("Title can't be blank, Body markdown is too long");
  });

  it('asks for a reconnect when the API key is refused', async () => {
    api.on('POST', '/api/articles', { status: 401, json: f('error-unauthorized') });
    const error = await failure(publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('unauthorized');
  });

  it('waits out a 429 for its Retry-After, then creates the article once', async () => {
    api.on('POST', '/api/articles', { status: 429, headers: { 'retry-after': '1' }, json: f('error-rate-limit') }, { status: 201, json: f('article-created') });
    const started = Date.now();
    const result = await publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} });
    expect(result.postedId).toBe('2094611');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(api.calls('POST', '/api/articles')).toHaveLength(2);
  });
});

describe('long-form titles', () => {
  it('takes the first line as the title and the rest as the body; one line is both', () => {
    expect(articleOf('## Autumn menu ##\n\nPumpkin spice is back.', undefined)).toEqual({ title: 'Autumn menu', body: 'Pumpkin spice is back.' });
    expect(articleOf('Only a line', undefined)).toEqual({ title: 'Only a line', body: 'Only a line' });
    expect(articleOf('A rather long first line of text', undefined, 16)).toEqual({ title: 'A rather long…', body: 'A rather long first line of text' });
  });
});
