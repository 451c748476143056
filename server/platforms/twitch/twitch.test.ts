// Twitch against the documented Helix shapes, served by the local HTTPS stand-in through the
// guarded client:
//   https://dev.twitch.tv/docs/api/reference/chat#send-chat-message (body, the answer's
//     message_id, is_sent and drop_reason; 400, 401, 422, 429)
//   https://dev.twitch.tv/docs/api/reference/chat#send-chat-announcement (query, body, 204)
//   https://dev.twitch.tv/docs/api/guide/#twitch-rate-limits (429, Ratelimit-Reset)
//   https://dev.twitch.tv/docs/authentication/refresh-tokens/ (the grant; "Invalid refresh token")
import { describe, expect, it } from 'vitest';
import { TokenExpiredError, type PublishRequest, type TokenStore } from '../publisher';
import { failure, liveConnection, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { reconcilerFor } from '../reconcilers';
import { createTwitchPublisher, type TwitchOptions } from './twitch-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const BROADCASTER = '141981764';
const CHANNEL = 'https://www.twitch.tv/heraldcoffee';
const connection = () =>
  liveConnection('twitch', { externalId: BROADCASTER, accountName: 'heraldcoffee', accessToken: 'twitch_access_0', platformData: { login: 'heraldcoffee' } });
const publisher = (extra: Partial<TwitchOptions> = {}, tokens?: TokenStore) =>
  publishing(createTwitchPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: 'app-client-id', clientSecret: '', ...extra }), tokens);
const post = (settings: PublishRequest<'twitch'>['settings'] = {}): PublishRequest<'twitch'> => ({
  content: 'Roasting live in ten minutes: come say hi!',
  mediaUrls: [],
  settings,
  idempotencyKey: 'target-7',
});

describe('Twitch publishing', () => {
  it('sends a chat message as the broadcaster, with the app’s Client-Id, and keeps Twitch’s message id', async () => {
    api.on('POST', '/chat/messages', { json: f('chat-message-sent') });
    const result = await publisher().publish(connection(), post());

    expect(result).toEqual({ postedId: 'abc-123-def', permalink: CHANNEL });
    const [call] = api.calls('POST', '/chat/messages');
    expect(call!.headers.authorization).toBe('Bearer twitch_access_0');
    expect(call!.headers['client-id']).toBe('app-client-id');
    expect(call!.json()).toEqual({ broadcaster_id: BROADCASTER, sender_id: BROADCASTER, message: 'Roasting live in ten minutes: come say hi!' });
  });

  it('sends an announcement in the colour asked; Twitch answers 204, so the target’s key is its id', async () => {
    api.on('POST', '/chat/announcements', { status: 204 });
    const result = await publisher().publish(connection(), post({ messageType: 'announcement', color: 'green' }));

    expect(result).toEqual({ postedId: 'target-7', permalink: CHANNEL });
    const [call] = api.calls('POST', '/chat/announcements');
    expect(Object.fromEntries(call!.query)).toEqual({ broadcaster_id: BROADCASTER, moderator_id: BROADCASTER });
    expect(call!.json()).toEqual({ message: 'Roasting live in ten minutes: come say hi!', color: 'green' });
    expect(api.calls('POST', '/chat/messages')).toHaveLength(0);
  });

  it('reports a message Twitch dropped with Twitch’s reason, verbatim', async () => {
    api.on('POST', '/chat/messages', { json: f('chat-message-dropped') });
    const error = await failure(publisher().publish(connection(), post()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Your message is identical to the one you sent within the last 30 seconds.');
  });

  it('passes Twitch’s refusal on verbatim, with its status', async () => {
    api.on('POST', '/chat/messages', { status: 400, json: f('error-bad-request') });
    const error = await failure(publisher().publish(connection(), post()));
    expect(error.message).toBe('The parameter "message" was malformed: the value must be a string of at most 500 characters');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('waits until Ratelimit-Reset after a 429, then sends once; a 429 without a reset is reported verbatim', async () => {
    const resetNow = String(Math.floor(Date.now() / 1000));
    api.on(
      'POST',
      '/chat/announcements',
      { status: 429, headers: { 'ratelimit-limit': '800', 'ratelimit-remaining': '0', 'ratelimit-reset': resetNow }, json: f('error-rate-limit') },
      { status: 204 },
    );
    expect((await publisher().publish(connection(), post({ messageType: 'announcement' }))).postedId).toBe('target-7');
    expect(api.calls('POST', '/chat/announcements')).toHaveLength(2);
    expect(api.calls('POST', '/chat/announcements')[1]!.json()).toEqual({ message: 'Roasting live in ten minutes: come say hi!', color: 'primary' });

    api.on('POST', '/chat/messages', { status: 429, json: f('error-rate-limit') });
    const error = await failure(publisher().publish(connection(), post()));
    expect(error.message).toBe('Too Many Requests');
    expect(error.opts).toEqual({ status: 429 });
  });

  it('refuses what Twitch would refuse before calling it', async () => {
    const blank = await failure(publisher().publish(connection(), { ...post(), content: '  \n ' }));
    expect(blank.message).toBe('A Twitch chat message needs text');
    const image = await failure(publisher().publish(connection(), { ...post(), mediaUrls: ['https://cdn.herald.example/a.jpg'] }));
    expect(image.message).toBe('Twitch chat takes text only');
    expect(api.requests).toHaveLength(0);
  });

  it('cannot be asked after an interruption: chat is not read back', () => {
    expect(reconcilerFor({ provider: 'live', platform: 'twitch' })).toBeNull();
  });
});

describe('Twitch token refresh', () => {
  const account = (tokenExpiresAt: Date) =>
    storedConnection('twitch', {
      externalId: BROADCASTER,
      accountName: 'heraldcoffee',
      accessToken: 'twitch_access_1',
      refreshToken: 'twitch_refresh_1',
      tokenExpiresAt,
    });
  const app = () => ({ clientSecret: 'app-secret', tokenUrl: `${api.baseUrl}/oauth2/token` });

  it('refreshes after a 401, sends again with the new token and keeps the new refresh token', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() + 600_000));
    api.on('POST', '/chat/messages', { status: 401, json: f('error-unauthorized') }, { json: f('chat-message-sent') });
    api.on('POST', '/oauth2/token', { json: f('token-refreshed') });

    const result = await publisher(app(), tokens).publish({ ...row, platformData: { login: 'heraldcoffee' } }, post());

    expect(result.postedId).toBe('abc-123-def');
    expect(Object.fromEntries(api.calls('POST', '/oauth2/token')[0]!.form())).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'twitch_refresh_1',
      client_id: 'app-client-id',
      client_secret: 'app-secret',
    });
    expect(api.calls('POST', '/chat/messages').map((r) => r.headers.authorization)).toEqual(['Bearer twitch_access_1', 'Bearer twitch_access_2']);
    expect(tokens.get(row.id)).toMatchObject({ accessToken: 'twitch_access_2', refreshToken: 'twitch_refresh_2' });
  });

  it('refreshes an expired token before sending', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 1000));
    api.on('POST', '/oauth2/token', { json: f('token-refreshed') });
    api.on('POST', '/chat/messages', { json: f('chat-message-sent') });
    await publisher(app(), tokens).publish(row, post());
    expect(api.calls('POST', '/chat/messages').map((r) => r.headers.authorization)).toEqual(['Bearer twitch_access_2']);
  });

  it('asks for a reconnect when Twitch refuses the refresh token, in its words', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 1000));
    api.on('POST', '/oauth2/token', { status: 400, json: { status: 400, message: 'Invalid refresh token' } });
    const error = await failure(publisher(app(), tokens).publish(row, post()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Invalid refresh token');
    expect(api.calls('POST', '/chat/messages')).toHaveLength(0);
  });

  it('reports a refused token as a connection to reconnect when no app can refresh it', async () => {
    api.on('POST', '/chat/messages', { status: 401, json: f('error-unauthorized') });
    const error = await failure(publisher().publish(connection(), post()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Invalid OAuth token');
  });
});
