// The Slack adapter against Slack's documented incoming webhooks
// (https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks: the JSON body, the
// "ok" answer and the plain-text error codes with their statuses;
// https://docs.slack.dev/reference/block-kit/blocks/section-block and …/image-block).
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { createSlackPublisher } from './slack-publisher';

const HOOK = '/services/T9TK3CUKW/B0123456789/Gxq9Jq5k8EXAMPLEa1b2c3d4';
const api = useFakePlatformApi();
const connection = (accessToken = `https://hooks.slack.com${HOOK}`) =>
  liveConnection('slack', { externalId: 'C05002EAE', accountName: '#general', accessToken, platformData: { channelId: 'C05002EAE' } });
const publisher = () => publishing(createSlackPublisher({ fetch: api.fetch, baseUrl: api.baseUrl }));
const okReply = { headers: { 'content-type': 'text/html' }, body: 'ok' };

describe('slack publishing', () => {
  it('posts a section with the escaped text and image blocks with alt text to the webhook’s path', async () => {
    api.on('POST', HOOK, okReply);
    const result = await publisher().publish(connection(), {
      content: 'Beans & <friends>',
      mediaUrls: ['https://cdn.herald.example/m/beans.jpg', 'https://cdn.herald.example/m/cup.png'],
      mediaKinds: ['image', 'image'],
      settings: { altTexts: ['A bag of beans'] },
      idempotencyKey: 'target-1',
    });
    // Slack answers "ok" and no message id: the target's key stands in, and there is no permalink.
    expect(result).toEqual({ postedId: 'target-1', permalink: null });
    const [call] = api.calls('POST', HOOK);
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.json()).toEqual({
      text: 'Beans &amp; &lt;friends&gt;',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'Beans &amp; &lt;friends&gt;' } },
        { type: 'image', image_url: 'https://cdn.herald.example/m/beans.jpg', alt_text: 'A bag of beans' },
        { type: 'image', image_url: 'https://cdn.herald.example/m/cup.png', alt_text: 'Image 2' },
      ],
    });
  });

  it('refuses a video before calling Slack', async () => {
    const error = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: ['https://cdn.herald.example/m/v.mp4'], settings: {} }));
    expect(error.message).toBe('A Slack incoming webhook cannot post videos');
    expect(api.requests).toHaveLength(0);
  });
});

describe('slack errors', () => {
  it('records Slack’s error code verbatim with its status', async () => {
    api.on('POST', HOOK, { status: 400, body: 'invalid_blocks' });
    const error = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('invalid_blocks');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('keeps action_prohibited a platform refusal (an admin restriction, not a lost webhook)', async () => {
    api.on('POST', HOOK, { status: 403, body: 'action_prohibited' });
    const error = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.opts).toEqual({ status: 403 });
  });

  it('asks for a reconnect when the webhook is gone or its channel archived', async () => {
    api.on('POST', HOOK, { status: 404, body: 'no_service' });
    const gone = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} }));
    expect(gone).toBeInstanceOf(TokenExpiredError);
    expect(gone.message).toBe('no_service');
    api.on('POST', HOOK, { status: 410, body: 'channel_is_archived' });
    const archived = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} }));
    expect(archived).toBeInstanceOf(TokenExpiredError);
    expect(archived.message).toBe('channel_is_archived');
  });

  it('waits out a 429 for its Retry-After, then posts', async () => {
    api.on('POST', HOOK, { status: 429, headers: { 'retry-after': '1' }, body: 'rate_limited' }, okReply);
    const result = await publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} });
    expect(result.permalink).toBeNull();
    expect(api.calls('POST', HOOK)).toHaveLength(2);
  });

  it('never posts a stored URL that is not a Slack webhook path', async () => {
    const error = await failure(publisher().publish(connection('https://evil.example/steal'), { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(api.requests).toHaveLength(0);
  });
});
