// Kick against the documented public API shapes, served by the local HTTPS stand-in through the
// guarded client:
//   https://docs.kick.com/apis/chat (OpenAPI https://api.kick.com/swagger/v1/doc.json, POST /chat:
//     { type, broadcaster_user_id, content } → { data: { is_sent, message_id }, message })
//   https://docs.kick.com/getting-started/generating-tokens-oauth2-flow (the refresh grant, and
//     its refusal { error: "Invalid request" })
import { describe, expect, it } from 'vitest';
import { TokenExpiredError, type PublishRequest, type TokenStore } from '../publisher';
import { failure, liveConnection, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { reconcilerFor } from '../reconcilers';
import { createKickPublisher, type KickOptions } from './kick-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const connection = () =>
  liveConnection('kick', { externalId: '123456', accountName: 'heraldcoffee', accessToken: 'kick_access_0', platformData: { slug: 'heraldcoffee' } });
const publisher = (extra: Partial<KickOptions> = {}, tokens?: TokenStore) =>
  publishing(createKickPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', ...extra }), tokens);
const post = (): PublishRequest<'kick'> => ({ content: 'Roasting live in ten minutes: come say hi!', mediaUrls: [], settings: {}, idempotencyKey: 'target-9' });

describe('Kick publishing', () => {
  it('sends a chat message as the user in their own channel and keeps Kick’s message id', async () => {
    api.on('POST', '/chat', { json: f('chat-sent') });
    const result = await publisher().publish(connection(), post());

    expect(result).toEqual({ postedId: '01JH4Z7XQ2ZC6D8S3N5V1R9K0M', permalink: 'https://kick.com/heraldcoffee' });
    const [call] = api.calls('POST', '/chat');
    expect(call!.headers.authorization).toBe('Bearer kick_access_0');
    expect(call!.json()).toEqual({ type: 'user', broadcaster_user_id: 123456, content: 'Roasting live in ten minutes: come say hi!' });
  });

  it('passes Kick’s refusal on verbatim, with its status', async () => {
    api.on('POST', '/chat', { status: 400, json: f('error-bad-request') });
    const error = await failure(publisher().publish(connection(), post()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('content: must be no more than 500 characters');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('reports a message Kick answered but did not send, in Kick’s words', async () => {
    api.on('POST', '/chat', { json: { data: { is_sent: false, message_id: '' }, message: 'Chat is in followers-only mode' } });
    const error = await failure(publisher().publish(connection(), post()));
    expect(error.message).toBe('Chat is in followers-only mode');
  });

  it('waits out a 429 whose wait Kick states, then sends once; reports one without a wait verbatim', async () => {
    api.on('POST', '/chat', { status: 429, headers: { 'retry-after': '0' }, json: f('error-rate-limit') }, { json: f('chat-sent') });
    expect((await publisher().publish(connection(), post())).postedId).toBe('01JH4Z7XQ2ZC6D8S3N5V1R9K0M');
    expect(api.calls('POST', '/chat')).toHaveLength(2);

    api.on('POST', '/chat', { status: 429, json: f('error-rate-limit') });
    const error = await failure(publisher().publish(connection(), post()));
    expect(error.message).toBe('Too Many Requests');
    expect(error.opts).toEqual({ status: 429 });
  });

  it('refuses what Kick would refuse before calling it', async () => {
    expect((await failure(publisher().publish(connection(), { ...post(), content: ' ' }))).message).toBe('A Kick chat message needs text');
    expect((await failure(publisher().publish(connection(), { ...post(), mediaUrls: ['https://cdn.herald.example/a.jpg'] }))).message).toBe(
      'Kick chat takes text only',
    );
    expect(api.requests).toHaveLength(0);
  });

  it('cannot be asked after an interruption: chat is not read back', () => {
    expect(reconcilerFor({ provider: 'live', platform: 'kick' })).toBeNull();
  });
});

describe('Kick token refresh', () => {
  const account = (tokenExpiresAt: Date) =>
    storedConnection('kick', {
      externalId: '123456',
      accountName: 'heraldcoffee',
      accessToken: 'kick_access_1',
      refreshToken: 'kick_refresh_1',
      tokenExpiresAt,
    });
  const app = () => ({ clientId: 'kick-client', clientSecret: 'kick-secret', tokenUrl: `${api.baseUrl}/oauth/token` });

  it('refreshes after a 401, sends again with the new token and keeps the new refresh token', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() + 600_000));
    api.on('POST', '/chat', { status: 401, json: f('error-unauthorized') }, { json: f('chat-sent') });
    api.on('POST', '/oauth/token', { json: f('token-refreshed') });

    const result = await publisher(app(), tokens).publish(row, post());

    expect(result).toEqual({ postedId: '01JH4Z7XQ2ZC6D8S3N5V1R9K0M', permalink: 'https://kick.com/heraldcoffee' });
    expect(Object.fromEntries(api.calls('POST', '/oauth/token')[0]!.form())).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'kick_refresh_1',
      client_id: 'kick-client',
      client_secret: 'kick-secret',
    });
    expect(api.calls('POST', '/chat').map((r) => r.headers.authorization)).toEqual(['Bearer kick_access_1', 'Bearer kick_access_2']);
    expect(tokens.get(row.id)).toMatchObject({ accessToken: 'kick_access_2', refreshToken: 'kick_refresh_2' });
  });

  it('refreshes an expired token before sending', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 1000));
    api.on('POST', '/oauth/token', { json: f('token-refreshed') });
    api.on('POST', '/chat', { json: f('chat-sent') });
    await publisher(app(), tokens).publish(row, post());
    expect(api.calls('POST', '/chat').map((r) => r.headers.authorization)).toEqual(['Bearer kick_access_2']);
  });

  it('asks for a reconnect when Kick refuses the refresh token, in its words', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 1000));
    api.on('POST', '/oauth/token', { status: 400, json: { error: 'Invalid request' } });
    const error = await failure(publisher(app(), tokens).publish(row, post()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Invalid request');
    expect(api.calls('POST', '/chat')).toHaveLength(0);
  });

  it('reports a refused token as a connection to reconnect when no app can refresh it', async () => {
    api.on('POST', '/chat', { status: 401, json: f('error-unauthorized') });
    const error = await failure(publisher().publish(connection(), post()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Unauthorized');
  });
});
