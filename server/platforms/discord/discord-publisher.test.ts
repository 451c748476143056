// The Discord adapter against Discord's documented webhook execution
// (https://discord.com/developers/docs/resources/webhook#execute-webhook,
// https://discord.com/developers/docs/reference#uploading-files,
// https://discord.com/developers/docs/reference#error-messages,
// https://discord.com/developers/docs/topics/rate-limits; the message body is the Message object
// of https://discord.com/developers/docs/resources/message#message-object).
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createDiscordPublisher } from './discord-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const WEBHOOK = '347114750880120863';
const TOKEN = 'kKDdjXa1g9tKNs0-_yOwLyALC9gydEWP6gr9sHabuK1vuofjhQDDnlOclJeRIvYK-pj_';
const PATH = `/webhooks/${WEBHOOK}/${TOKEN}`;

const api = useFakePlatformApi();
const connection = () =>
  liveConnection('discord', {
    externalId: WEBHOOK,
    accountName: 'testwebhook',
    accessToken: TOKEN,
    platformData: { webhookId: WEBHOOK, channelId: '345626669224982402', guildId: '290926792226357250', name: 'testwebhook' },
  });
const publisher = () => publishing(createDiscordPublisher({ fetch: api.fetch, baseUrl: api.baseUrl }));
const media = (name: string) => `${api.baseUrl}/media/${name}`;
const PERMALINK = 'https://discord.com/channels/290926792226357250/345626669224982402/1180201843695341568';

describe('discord publishing', () => {
  it('executes the webhook with wait=true and links the message', async () => {
    api.on('POST', PATH, { json: f('message') });
    const result = await publisher().publish(connection(), { content: 'Fresh roast on Friday', mediaUrls: [], settings: { suppressEmbeds: true } });
    expect(result).toEqual({ postedId: '1180201843695341568', permalink: PERMALINK });
    const [call] = api.calls('POST', PATH);
    expect(call!.query.get('wait')).toBe('true');
    expect(call!.json()).toEqual({ content: 'Fresh roast on Friday', flags: 4 });
  });

  it('adds the post’s card as an embed, its colour as Discord’s integer', async () => {
    api.on('POST', PATH, { json: f('message') });
    await publisher().publish(connection(), {
      content: 'New menu',
      mediaUrls: [],
      settings: { embed: { title: 'Winter menu', description: 'Soups are back', url: 'https://cafe.example/menu', color: '#5865F2' } },
    });
    expect(api.calls('POST', PATH)[0]!.json()).toEqual({
      content: 'New menu',
      embeds: [{ title: 'Winter menu', description: 'Soups are back', url: 'https://cafe.example/menu', color: 0x5865f2 }],
    });
  });

  it('uploads media as files[n] with payload_json naming each attachment', async () => {
    api.on('GET', '/media/beans.jpg', { headers: { 'content-type': 'image/jpeg' }, body: Buffer.from('JPEGBYTES!') });
    api.on('GET', '/media/clip.mp4', { headers: { 'content-type': 'video/mp4' }, body: Buffer.from('MP4BYTES') });
    api.on('POST', PATH, { json: f('message') });

    const result = await publisher().publish(connection(), {
      content: 'Fresh roast on Friday',
      mediaUrls: [media('beans.jpg'), media('clip.mp4')],
      mediaKinds: ['image', 'video'],
      settings: { username: 'Herald Coffee' },
    });

    expect(result.permalink).toBe(PERMALINK);
    const [call] = api.calls('POST', PATH);
    const form = await new Response(new Uint8Array(call!.body), { headers: { 'content-type': String(call!.headers['content-type']) } }).formData();
    expect(JSON.parse(String(form.get('payload_json')))).toEqual({
      content: 'Fresh roast on Friday',
      username: 'Herald Coffee',
      attachments: [
        { id: 0, filename: 'beans.jpg' },
        { id: 1, filename: 'clip.mp4' },
      ],
    });
    const image = form.get('files[0]') as File;
    expect(image.name).toBe('beans.jpg');
    expect(image.type).toBe('image/jpeg');
    expect(Buffer.from(await image.arrayBuffer()).toString()).toBe('JPEGBYTES!');
    expect((form.get('files[1]') as File).type).toBe('video/mp4');
  });
});

describe('discord errors', () => {
  it('records "Invalid Form Body" with the field’s own message', async () => {
    api.on('POST', PATH, { status: 400, json: f('error-invalid-form-body') });
    const error = await failure(publisher().publish(connection(), { content: 'x'.repeat(2001), mediaUrls: [], settings: {} }));
    expect(error.message).toBe('Invalid Form Body (content: Must be 2000 or fewer in length.)');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('waits out a 429 for the body’s retry_after, then posts', async () => {
    api.on('POST', PATH, { status: 429, json: f('error-rate-limit') }, { json: f('message') });
    const result = await publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} });
    expect(result.postedId).toBe('1180201843695341568');
    expect(api.calls('POST', PATH)).toHaveLength(2);
  });

  it('asks for a reconnect when the webhook was deleted', async () => {
    api.on('POST', PATH, { status: 404, json: f('error-unknown-webhook') });
    const error = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Unknown Webhook');
  });
});
