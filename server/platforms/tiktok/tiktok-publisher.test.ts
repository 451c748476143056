import { describe, expect, it } from 'vitest';
import { TokenExpiredError, type TokenStore } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture, rawFixture } from '../testing/fake-platform-api';
import { createTikTokPublisher, type TikTokOptions } from './tiktok-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const raw = (name: string) => rawFixture(import.meta.dirname, name);
const POST_ID = '7393049800123456789';

const api = useFakePlatformApi();
const connection = liveConnection('tiktok', {
  externalId: '-000ZRL12psS7ya3PqAPG5pUxm82VTZ9yvIm',
  accountName: 'heraldcoffee',
  accessToken: 'act.tiktok-token',
});

const publisher = (extra: Partial<TikTokOptions> = {}, tokens?: TokenStore) =>
  publishing(
    createTikTokPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientKey: '', clientSecret: '', pollIntervalMs: 0, pollAttempts: 3, ...extra }),
    tokens,
  );

function videoPath() {
  api.on('POST', '/v2/post/publish/creator_info/query/', { json: f('creator-info') });
  api.on('POST', '/v2/post/publish/video/init/', { json: f('video-init') });
  api.on('POST', '/v2/post/publish/status/fetch/', { json: f('status-processing') }, raw('status-complete'));
}

describe('tiktok publishing', () => {
  it('direct-posts a video pulled from our URL, polls the status and keeps the int64 post id exact', async () => {
    videoPath();
    const result = await publisher().publish(connection, {
      content: 'Latte art in 30 seconds #coffee',
      mediaUrls: ['https://cdn.herald.example/m/latte.mp4'],
      mediaKinds: ['video'],
      settings: {},
    });

    expect(result).toEqual({ postedId: POST_ID, permalink: `https://www.tiktok.com/@heraldcoffee/video/${POST_ID}` });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v2/post/publish/creator_info/query/',
      'POST /v2/post/publish/video/init/',
      'POST /v2/post/publish/status/fetch/',
      'POST /v2/post/publish/status/fetch/',
    ]);
    const [info, init, status] = api.requests;
    expect(info!.headers.authorization).toBe('Bearer act.tiktok-token');
    expect(init!.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(init!.json()).toEqual({
      post_info: {
        title: 'Latte art in 30 seconds #coffee',
        privacy_level: 'PUBLIC_TO_EVERYONE',
        disable_comment: false,
        disable_duet: false,
        disable_stitch: true,
      },
      source_info: { source: 'PULL_FROM_URL', video_url: 'https://cdn.herald.example/m/latte.mp4' },
    });
    expect(status!.json()).toEqual({ publish_id: 'v_pub_url~v2-1.7393049236378436614' });
  });

  it('direct-posts photos through content/init with the text as description', async () => {
    api.on('POST', '/v2/post/publish/creator_info/query/', { json: f('creator-info-unaudited') });
    api.on('POST', '/v2/post/publish/content/init/', { json: f('photo-init') });
    api.on('POST', '/v2/post/publish/status/fetch/', raw('status-complete'));

    const result = await publisher().publish(connection, {
      content: 'Three roasts, one morning',
      mediaUrls: ['https://cdn.herald.example/m/1.jpg', 'https://cdn.herald.example/m/2.jpg'],
      settings: {},
    });

    expect(result.permalink).toBe(`https://www.tiktok.com/@heraldcoffee/photo/${POST_ID}`);
    expect(api.calls('POST', '/v2/post/publish/content/init/')[0]!.json()).toEqual({
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      // Only SELF_ONLY is offered to this (unaudited) app: that is what is sent.
      post_info: { description: 'Three roasts, one morning', privacy_level: 'SELF_ONLY', disable_comment: true, auto_add_music: true },
      source_info: {
        source: 'PULL_FROM_URL',
        photo_cover_index: 0,
        photo_images: ['https://cdn.herald.example/m/1.jpg', 'https://cdn.herald.example/m/2.jpg'],
      },
    });
  });

  it('succeeds with the publish_id and no permalink while TikTok still holds the post after the last poll', async () => {
    videoPath();
    api.on('POST', '/v2/post/publish/status/fetch/', { json: f('status-processing') });
    const result = await publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/v.mp4'], settings: {} });
    expect(result).toEqual({ postedId: 'v_pub_url~v2-1.7393049236378436614', permalink: null });
    expect(api.calls('POST', '/v2/post/publish/status/fetch/')).toHaveLength(4);
  });
});

describe('tiktok errors', () => {
  it('maps error.message verbatim', async () => {
    api.on('POST', '/v2/post/publish/creator_info/query/', { json: f('creator-info') });
    api.on('POST', '/v2/post/publish/video/init/', { status: 403, json: f('error-url-ownership') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://elsewhere.example/v.mp4'], settings: {} }));
    expect(error.message).toBe(f('error-url-ownership').error.message);
    expect(error.opts).toEqual({ status: 403 });
  });

  it('honours a non-ok code even on HTTP 200', async () => {
    api.on('POST', '/v2/post/publish/creator_info/query/', { json: f('creator-info') });
    api.on('POST', '/v2/post/publish/video/init/', { status: 200, json: f('error-spam-risk') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/v.mp4'], settings: {} }));
    expect(error.message).toBe('The daily post cap from the API is reached for the current user.');
  });

  it('reports a FAILED publish with its fail_reason', async () => {
    videoPath();
    api.on('POST', '/v2/post/publish/status/fetch/', { json: f('status-failed') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/v.mp4'], settings: {} }));
    expect(error.message).toBe('video_pull_failed');
  });

  it('passes rate_limit_exceeded on with its status', async () => {
    api.on('POST', '/v2/post/publish/creator_info/query/', { status: 429, json: f('error-rate-limit') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/v.mp4'], settings: {} }));
    expect(error.message).toBe('API rate limit was exceeded. Please try again later.');
    expect(error.opts).toEqual({ status: 429 });
  });

  it('raises TokenExpiredError for access_token_invalid when the app cannot refresh', async () => {
    api.on('POST', '/v2/post/publish/creator_info/query/', { status: 401, json: f('error-token-invalid') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/v.mp4'], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('The access token is invalid or not found in the request.');
  });

  it('refuses a post without media before calling TikTok', async () => {
    const error = await failure(publisher().publish(connection, { content: 'text only', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('TikTok posts need a video or photos');
    expect(api.requests).toHaveLength(0);
  });
});

describe('tiktok checkpoint', () => {
  const tiktok = () => createTikTokPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientKey: '', clientSecret: '', pollIntervalMs: 0, pollAttempts: 3 });

  it('records the publish_id the moment the init call answers it, before asking its status', async () => {
    videoPath();
    const recorded: { values: Record<string, string>; sentBefore: string[] }[] = [];
    const result = await tiktok().publish(
      connection,
      { content: 'x', mediaUrls: ['https://cdn.herald.example/m/latte.mp4'], mediaKinds: ['video'], settings: {} },
      {
        tokens: new MemoryTokenStore(),
        checkpoint: async (values) => void recorded.push({ values, sentBefore: api.requests.map((r) => `${r.method} ${r.path}`) }),
      },
    );

    expect(result.postedId).toBe(POST_ID);
    expect(recorded).toEqual([
      {
        values: { publishId: 'v_pub_url~v2-1.7393049236378436614', mediaType: 'video' },
        sentBefore: ['POST /v2/post/publish/creator_info/query/', 'POST /v2/post/publish/video/init/'],
      },
    ]);
  });

  it('records a photo post as such', async () => {
    api.on('POST', '/v2/post/publish/creator_info/query/', { json: f('creator-info') });
    api.on('POST', '/v2/post/publish/content/init/', { json: f('photo-init') });
    api.on('POST', '/v2/post/publish/status/fetch/', raw('status-complete'));
    const recorded: Record<string, string>[] = [];
    await tiktok().publish(
      connection,
      { content: 'x', mediaUrls: ['https://cdn.herald.example/m/1.jpg'], mediaKinds: ['image'], settings: {} },
      { tokens: new MemoryTokenStore(), checkpoint: async (values) => void recorded.push(values) },
    );
    expect(recorded).toEqual([{ publishId: 'p_pub_url~v2.7393049236378436615', mediaType: 'photo' }]);
  });

  it('still settles the post when the publish_id cannot be recorded: TikTok already has it', async () => {
    videoPath();
    const result = await tiktok().publish(
      connection,
      { content: 'x', mediaUrls: ['https://cdn.herald.example/m/latte.mp4'], mediaKinds: ['video'], settings: {} },
      {
        tokens: new MemoryTokenStore(),
        checkpoint: async () => {
          throw new Error('the attempt could not be recorded');
        },
      },
    );
    expect(result).toEqual({ postedId: POST_ID, permalink: `https://www.tiktok.com/@heraldcoffee/video/${POST_ID}` });
    expect(api.calls('POST', '/v2/post/publish/video/init/')).toHaveLength(1);
  });
});

describe('tiktok token refresh', () => {
  const account = (tokenExpiresAt: Date | null) =>
    storedConnection('tiktok', {
      externalId: '-000ZRL12psS7ya3PqAPG5pUxm82VTZ9yvIm',
      accountName: 'heraldcoffee',
      accessToken: 'act.old',
      refreshToken: 'rft.old',
      tokenExpiresAt,
    });

  it('refreshes after access_token_invalid, retries, and stores the rotated tokens', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() + 3_600_000));
    api.on('POST', '/v2/post/publish/creator_info/query/', { status: 401, json: f('error-token-invalid') }, { json: f('creator-info') });
    api.on('POST', '/v2/post/publish/video/init/', { json: f('video-init') });
    api.on('POST', '/v2/post/publish/status/fetch/', raw('status-complete'));
    api.on('POST', '/v2/oauth/token/', { json: f('token-refreshed') });

    const result = await publisher({ clientKey: 'aw-client-key', clientSecret: 'client-secret' }, tokens).publish(row, {
      content: 'x',
      mediaUrls: ['https://cdn.herald.example/m/v.mp4'],
      settings: {},
    });

    expect(result.postedId).toBe(POST_ID);
    const refresh = api.calls('POST', '/v2/oauth/token/')[0]!;
    expect(refresh.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(refresh.form())).toEqual({
      client_key: 'aw-client-key',
      client_secret: 'client-secret',
      grant_type: 'refresh_token',
      refresh_token: 'rft.old',
    });
    expect(api.calls('POST', '/v2/post/publish/creator_info/query/').map((r) => r.headers.authorization)).toEqual([
      'Bearer act.old',
      `Bearer ${f('token-refreshed').access_token}`,
    ]);
    const stored = tokens.get(row.id)!;
    expect(stored.accessToken).toBe(f('token-refreshed').access_token);
    expect(stored.refreshToken).toBe(f('token-refreshed').refresh_token);
  });

  it('a token refused while polling is refreshed for the polls alone: the init, which creates the post, is sent once', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() + 3_600_000));
    api.on('POST', '/v2/post/publish/creator_info/query/', { json: f('creator-info') });
    api.on('POST', '/v2/post/publish/video/init/', { json: f('video-init') });
    api.on('POST', '/v2/post/publish/status/fetch/', { status: 401, json: f('error-token-invalid') }, raw('status-complete'));
    api.on('POST', '/v2/oauth/token/', { json: f('token-refreshed') });

    const result = await publisher({ clientKey: 'aw-client-key', clientSecret: 'client-secret' }, tokens).publish(row, {
      content: 'x',
      mediaUrls: ['https://cdn.herald.example/m/v.mp4'],
      settings: {},
    });

    expect(result.postedId).toBe(POST_ID);
    expect(api.calls('POST', '/v2/post/publish/video/init/')).toHaveLength(1);
    expect(api.calls('POST', '/v2/post/publish/status/fetch/').map((r) => r.headers.authorization)).toEqual([
      'Bearer act.old',
      `Bearer ${f('token-refreshed').access_token}`,
    ]);
  });

  it('raises TokenExpiredError with TikTok’s description when the refresh token is refused', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 1000));
    api.on('POST', '/v2/oauth/token/', { json: f('token-refresh-refused') });
    const error = await failure(
      publisher({ clientKey: 'aw-client-key', clientSecret: 'client-secret' }, tokens).publish(row, {
        content: 'x',
        mediaUrls: ['https://cdn.herald.example/m/v.mp4'],
        settings: {},
      }),
    );
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Refresh token is invalid or expired.');
    expect(api.calls('POST', '/v2/post/publish/creator_info/query/')).toHaveLength(0);
  });
});
