// The Telegram adapter against the Bot API's documented requests and answers
// (https://core.telegram.org/bots/api#sendmessage, #sendphoto, #sendmediagroup, #sending-files,
// #making-requests; the answer bodies are Message objects as the page defines them).
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createTelegramPublisher, type TelegramOptions } from './telegram-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const BOT = '7012345678:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const CHAT = '-1001234567890';

const api = useFakePlatformApi();
const connection = (platformData: Record<string, unknown> = { chatId: CHAT, username: 'heraldcoffee', botId: '7012345678' }) =>
  liveConnection('telegram', { externalId: CHAT, accountName: '@heraldcoffee', accessToken: 'telegram-bot:7012345678', platformData });
const publisher = (extra: Partial<TelegramOptions> = {}) =>
  publishing(createTelegramPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, botToken: BOT, ...extra }));
const path = (method: string) => `/bot${BOT}/${method}`;
const media = (name: string) => `${api.baseUrl}/media/${name}`;

describe('telegram publishing', () => {
  it('sends a text message to the channel and links it on t.me', async () => {
    api.on('POST', path('sendMessage'), { json: f('send-message') });
    const result = await publisher().publish(connection(), {
      content: 'Fresh roast on Friday',
      mediaUrls: [],
      settings: { silent: true, disableLinkPreview: true },
    });
    expect(result).toEqual({ postedId: '312', permalink: 'https://t.me/heraldcoffee/312' });
    const [call] = api.calls('POST', path('sendMessage'));
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.json()).toEqual({
      chat_id: CHAT,
      text: 'Fresh roast on Friday',
      disable_notification: true,
      link_preview_options: { is_disabled: true },
    });
  });

  it('sends one photo by URL with the text as caption', async () => {
    api.on('HEAD', '/media/beans.jpg', { headers: { 'content-length': '48211' } });
    api.on('POST', path('sendPhoto'), { json: f('send-photo') });
    const result = await publisher().publish(connection(), { content: 'Beans', mediaUrls: [media('beans.jpg')], mediaKinds: ['image'], settings: {} });
    expect(result).toEqual({ postedId: '313', permalink: 'https://t.me/heraldcoffee/313' });
    expect(api.calls('POST', path('sendPhoto'))[0]!.json()).toEqual({ chat_id: CHAT, caption: 'Beans', photo: media('beans.jpg') });
  });

  it('sends an album with the caption on the first item, uploading a video beyond the URL limit as bytes', async () => {
    const video = Buffer.alloc(21 * 1024 * 1024, 7);
    api.on('HEAD', '/media/1.jpg', { headers: { 'content-length': '1000' } });
    api.on('HEAD', '/media/clip.mp4', { headers: { 'content-length': String(video.length) } });
    api.on('GET', '/media/clip.mp4', { headers: { 'content-type': 'video/mp4' }, body: video });
    api.on('POST', path('sendMediaGroup'), { json: f('send-media-group') });

    const result = await publisher().publish(connection(), {
      content: 'Three roasts',
      mediaUrls: [media('1.jpg'), media('clip.mp4')],
      mediaKinds: ['image', 'video'],
      settings: {},
    });

    expect(result).toEqual({ postedId: '314', permalink: 'https://t.me/heraldcoffee/314' });
    const [call] = api.calls('POST', path('sendMediaGroup'));
    expect(call!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(new Uint8Array(call!.body), { headers: { 'content-type': String(call!.headers['content-type']) } }).formData();
    expect(form.get('chat_id')).toBe(CHAT);
    expect(JSON.parse(String(form.get('media')))).toEqual([
      { type: 'photo', media: media('1.jpg'), caption: 'Three roasts' },
      { type: 'video', media: 'attach://file1' },
    ]);
    const file = form.get('file1') as File;
    expect(file.size).toBe(video.length);
    expect(file.type).toBe('video/mp4');
  });

  it('gives no permalink for a private channel', async () => {
    api.on('POST', path('sendMessage'), { json: f('send-message') });
    const result = await publisher().publish(connection({ chatId: CHAT, username: null, botId: '7012345678' }), { content: 'x', mediaUrls: [], settings: {} });
    expect(result).toEqual({ postedId: '312', permalink: null });
  });
});

describe('telegram errors', () => {
  it('records Telegram’s description verbatim with its error_code', async () => {
    api.on('POST', path('sendPhoto'), { status: 400, json: f('error-caption-too-long') });
    const error = await failure(publisher().publish(connection(), { content: 'x'.repeat(1100), mediaUrls: [media('a.jpg')], settings: {} }));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Bad Request: message caption is too long');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('waits out a 429 for parameters.retry_after, then sends', async () => {
    api.on('POST', path('sendMessage'), { status: 429, json: f('error-rate-limit') }, { json: f('send-message') });
    const started = Date.now();
    const result = await publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} });
    expect(result.postedId).toBe('312');
    expect(api.calls('POST', path('sendMessage'))).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('asks for a reconnect when the bot was removed from the channel', async () => {
    api.on('POST', path('sendMessage'), { status: 403, json: f('error-bot-kicked') });
    const error = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Forbidden: bot was kicked from the channel chat');
  });

  it('asks for a reconnect when the channel was connected with another bot, before calling Telegram', async () => {
    const error = await failure(publisher({ botToken: '999:other' }).publish(connection(), { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(api.requests).toHaveLength(0);
  });
});
