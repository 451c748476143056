// The Hashnode adapter against its GraphQL API as documented: https://apidocs.hashnode.com/
// (publishPost and createDraft with PublishPostInput / CreateDraftInput, "Authentication",
// "Status and Error Codes"); the FORBIDDEN message in fixtures/ is the one Hashnode's API
// reference quotes for a blog without the Pro plan (github.com/Hashnode/gql-skill, SKILL.md).
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createHashnodePublisher, tagSlug } from './hashnode-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const PUBLICATION = '6571f0c2a8b9d40012e3f4b2';
const connection = (platformData: Record<string, unknown> = { publicationId: PUBLICATION }) =>
  liveConnection('hashnode', { externalId: PUBLICATION, accountName: 'heraldcoffee.hashnode.dev', accessToken: 'hn-token', platformData });
const publisher = () => publishing(createHashnodePublisher({ fetch: api.fetch, baseUrl: api.baseUrl }));

describe('hashnode publishing', () => {
  it('publishes the post with the cover image, the further images in the body, tags and canonical URL', async () => {
    api.on('POST', '/', { json: f('post-published') });
    const result = await publisher().publish(connection(), {
      content: '# Latte art in 30 seconds\n\nSteam the milk to 60 °C, tilt the cup and pour from high, then low.',
      mediaUrls: ['https://cdn.heraldcoffee.example/latte.jpg', 'https://cdn.heraldcoffee.example/pour.jpg'],
      mediaKinds: ['image', 'image'],
      settings: { tags: ['Coffee', '#Café Culture', 'coffee'], canonicalUrl: 'https://heraldcoffee.example/blog/latte-art', subtitle: 'A barista’s trick' },
    });
    expect(result).toEqual({ postedId: '6747b1c0d2e3f40015a6b7c8', permalink: 'https://heraldcoffee.hashnode.dev/latte-art-in-30-seconds' });
    const [call] = api.calls('POST', '/');
    expect(call!.headers.authorization).toBe('hn-token');
    const body = call!.json();
    expect(body.query).toMatch(/^mutation PublishPost\(\$input: PublishPostInput!\) \{ publishPost\(input: \$input\) \{ post \{ id url \} \} \}$/);
    expect(body.variables).toEqual({
      input: {
        publicationId: PUBLICATION,
        title: 'Latte art in 30 seconds',
        subtitle: 'A barista’s trick',
        contentMarkdown: 'Steam the milk to 60 °C, tilt the cup and pour from high, then low.\n\n![](https://cdn.heraldcoffee.example/pour.jpg)',
        tags: [
          { slug: 'coffee', name: 'Coffee' },
          { slug: 'cafe-culture', name: 'Café Culture' },
        ],
        originalArticleURL: 'https://heraldcoffee.example/blog/latte-art',
        coverImageOptions: { coverImageURL: 'https://cdn.heraldcoffee.example/latte.jpg' },
      },
    });
  });

  it('makes a draft with createDraft when asked, taking the title setting over the first line', async () => {
    api.on('POST', '/', { json: f('draft-created') });
    const result = await publisher().publish(connection(), {
      content: 'First line\nSecond line',
      mediaUrls: [],
      settings: { title: 'Given', published: false },
    });
    expect(result).toEqual({ postedId: '6747b1c0d2e3f40015a6b7d9', permalink: null });
    const body = api.calls('POST', '/')[0]!.json();
    expect(body.query).toContain('createDraft(input: $input)');
    expect(body.variables.input).toEqual({ publicationId: PUBLICATION, title: 'Given', contentMarkdown: 'First line\nSecond line' });
  });

  it('refuses a video, and a tag with nothing to make a slug of, before calling Hashnode', async () => {
    const video = await failure(
      publisher().publish(connection(), { content: 'x', mediaUrls: ['https://cdn.heraldcoffee.example/pour.mp4'], mediaKinds: ['video'], settings: {} }),
    );
    expect(video.message).toBe('Hashnode posts take images only; upload a video elsewhere and link it');
    const tag = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: { tags: ['咖啡'] } }));
    expect(tag.message).toBe('Hashnode tags need letters or digits for their address; “咖啡” has none');
    expect(api.requests).toHaveLength(0);
    expect(tagSlug('  Node.js & Deno ')).toBe('node-js-deno');
  });
});

describe('hashnode errors', () => {
  it('records Hashnode’s refusal verbatim, with its status', async () => {
    api.on('POST', '/', { json: f('error-forbidden') });
    const error = await failure(publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Publication does not have an active Pro plan. Upgrade in your dashboard to access this via the API.');
    expect(error.opts).toEqual({ status: 200 });
  });

  it('asks for a reconnect when the token is refused (UNAUTHENTICATED)', async () => {
    api.on('POST', '/', { json: f('error-unauthenticated') });
    const error = await failure(publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Invalid access token provided.');
  });

  it('asks for a reconnect when no publication is stored, before any call', async () => {
    const error = await failure(publisher().publish(connection({}), { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(api.requests).toHaveLength(0);
  });

  it('waits out a 429 for its Retry-After, then publishes once', async () => {
    api.on('POST', '/', { status: 429, headers: { 'retry-after': '1' }, json: { errors: [{ message: 'Too many requests' }] } }, { json: f('post-published') });
    const started = Date.now();
    const result = await publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} });
    expect(result.postedId).toBe('6747b1c0d2e3f40015a6b7c8');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(api.calls('POST', '/')).toHaveLength(2);
  });
});
