// The Instagram messages client in both flavours against the documented conversation and
// send-message shapes, served by the local HTTPS stand-in through the guarded client.
//   https://developers.facebook.com/docs/messenger-platform/instagram/features/conversations
//     (participants { username, id }: the person's IGSID and the account's Instagram id)
//   https://developers.facebook.com/docs/messenger-platform/instagram/features/send-message
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/conversations-api
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/messaging-api
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
//     (refresh_access_token, for the Instagram Login token refused as expired)
import { describe, expect, it } from 'vitest';
import type { ConversationsContext } from '../conversations';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { createInstagramLoginMessagesClient } from '../instagram_login/instagram-login-messages';
import { createInstagramMessagesClient } from './instagram-messages';

const IG = '17841405822304914'; // the professional account
const PAGE = '546349135390552'; // the Page it is linked to
const LENA = '1254459154682919'; // Lena's Instagram-scoped id
const FIELDS = 'participants,messages{id,from,to,message,created_time,attachments}';

const api = useFakePlatformApi();
const ctx = (): ConversationsContext => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T12:00:00Z') });
const facebookLogin = () => createInstagramMessagesClient({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0` });
const instagramLogin = () => createInstagramLoginMessagesClient({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0` });
const account = (platformData: Record<string, unknown> = { pageId: PAGE }) =>
  liveConnection('instagram', { externalId: IG, accountName: 'heraldcoffee', accessToken: 'EAAB-page-token', platformData });

const business = { username: 'heraldcoffee', id: IG };
const lena = { username: 'lena.brews', id: LENA };
const CONVERSATIONS = {
  data: [
    {
      id: 'aWdfZAG06MTpJR01lc3NhZA2VUaHJlYWQ6MTc4NDE0MDU4MjIzMDQ5MTQ6MzQwMjgyMzY2ODQxNzEwMzAwOTQ5MTI4MTY2NTk0NTQzNjQxNjEx',
      participants: { data: [lena, business] },
      messages: {
        data: [
          {
            id: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQxNDA1ODIyMzA0OTE0',
            from: business,
            to: { data: [lena] },
            message: 'Hi Lena! Yes, we ship.',
            created_time: '2026-11-27T09:31:12+0000',
          },
          {
            id: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjEyNTQ0NTkxNTQ2ODI5MTk6',
            from: lena,
            to: { data: [business] },
            message: '',
            created_time: '2026-11-27T09:30:02+0000',
            attachments: {
              data: [{ image_data: { url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1789&signature=abc', width: 1080, height: 1350 } }],
            },
          },
        ],
      },
    },
  ],
  paging: { cursors: { after: 'QVFIUk1' } },
};

describe('Instagram messages (Facebook Login)', () => {
  it('reads the Instagram conversations of the linked Page: the IGSID is the conversation, the account’s answers are its own', async () => {
    api.on('GET', `/v25.0/${PAGE}/conversations`, { json: CONVERSATIONS });

    const read = await facebookLogin().readMessages(account(), null, ctx());

    const [request] = api.calls('GET', `/v25.0/${PAGE}/conversations`);
    expect(Object.fromEntries(request!.query)).toEqual({ platform: 'instagram', fields: FIELDS });
    expect(request!.headers.authorization).toBe('Bearer EAAB-page-token');
    expect(read.messages).toEqual([
      {
        id: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQxNDA1ODIyMzA0OTE0',
        conversationId: LENA,
        counterpartId: LENA,
        authorId: IG,
        authorName: 'heraldcoffee',
        authorHandle: '@heraldcoffee',
        text: 'Hi Lena! Yes, we ship.',
        attachmentUrl: null,
        createdAt: new Date('2026-11-27T09:31:12Z'),
        fromAccount: true,
      },
      {
        id: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjEyNTQ0NTkxNTQ2ODI5MTk6',
        conversationId: LENA,
        counterpartId: LENA,
        authorId: LENA,
        authorName: 'lena.brews',
        authorHandle: '@lena.brews',
        text: '',
        attachmentUrl: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1789&signature=abc',
        createdAt: new Date('2026-11-27T09:30:02Z'),
        fromAccount: false,
      },
    ]);
    expect(read.cursor).toBe('2026-11-27T09:31:12.000Z');
  });

  it('without a stored Page id asks through `me`, which a Page token names the Page by; knows the account by its username too', async () => {
    const renamed = structuredClone(CONVERSATIONS);
    renamed.data[0]!.messages.data[0]!.from = { username: 'HeraldCoffee', id: '90010000000001' };
    api.on('GET', '/v25.0/me/conversations', { json: renamed });
    api.on('POST', '/v25.0/me/messages', { json: { recipient_id: LENA, message_id: 'aWdfZAG1faXRlbTo2' } });

    const read = await facebookLogin().readMessages(account({}), null, ctx());
    expect(read.messages.map((m) => m.fromAccount)).toEqual([true, false]);
    expect(await facebookLogin().sendMessage(account({}), { conversationId: LENA, counterpartId: LENA }, { text: 'Thanks!' }, ctx())).toEqual({
      id: 'aWdfZAG1faXRlbTo2',
    });
  });

  it('answers through the Page with the documented body (no messaging_type); an image is its own message', async () => {
    const SEND = `/v25.0/${PAGE}/messages`;
    api.on('POST', SEND, { json: { recipient_id: LENA, message_id: 'm_image' } }, { json: { recipient_id: LENA, message_id: 'm_text' } });

    const sent = await facebookLogin().sendMessage(
      account(),
      { conversationId: LENA, counterpartId: LENA },
      { text: 'Here it is', imageUrl: 'https://media.herald.example/beans.jpg' },
      ctx(),
    );
    expect(sent).toEqual({ id: 'm_text' });
    expect(api.calls('POST', SEND).map((r) => r.json())).toEqual([
      { recipient: { id: LENA }, message: { attachment: { type: 'image', payload: { url: 'https://media.herald.example/beans.jpg' } } } },
      { recipient: { id: LENA }, message: { text: 'Here it is' } },
    ]);
  });

  it('fails the connection with TokenExpiredError for a refused Page token, and passes other refusals on', async () => {
    api.on('GET', `/v25.0/${PAGE}/conversations`, {
      status: 400,
      json: { error: { message: 'Error validating access token: Session has expired.', type: 'OAuthException', code: 190, error_subcode: 463 } },
    });
    const expired = await failure(facebookLogin().readMessages(account(), null, ctx()));
    expect(expired).toBeInstanceOf(TokenExpiredError);
    expect(expired.message).toBe('Error validating access token: Session has expired.');

    api.on('POST', `/v25.0/${PAGE}/messages`, {
      status: 400,
      json: { error: { message: '(#200) Requires instagram_manage_messages permission to manage the object', type: 'OAuthException', code: 200 } },
    });
    const refused = await failure(facebookLogin().sendMessage(account(), { conversationId: LENA, counterpartId: LENA }, { text: 'Hi' }, ctx()));
    expect(refused).not.toBeInstanceOf(TokenExpiredError);
    expect(refused.message).toBe('(#200) Requires instagram_manage_messages permission to manage the object');
  });
});

describe('Instagram messages (Instagram Login)', () => {
  it('reads /me/conversations on graph.instagram.com and answers from the account id', async () => {
    api.on('GET', '/v25.0/me/conversations', { json: CONVERSATIONS });
    api.on('POST', `/v25.0/${IG}/messages`, { json: { recipient_id: LENA, message_id: 'aWdfZAG1faXRlbTo3' } });
    const connection = liveConnection('instagram_login', { externalId: IG, accountName: 'heraldcoffee', accessToken: 'IGAA-user-token' });

    const read = await instagramLogin().readMessages(connection, null, ctx());
    expect(Object.fromEntries(api.calls('GET', '/v25.0/me/conversations')[0]!.query)).toEqual({ platform: 'instagram', fields: FIELDS });
    expect(read.messages.map((m) => [m.conversationId, m.fromAccount])).toEqual([
      [LENA, true],
      [LENA, false],
    ]);

    const sent = await instagramLogin().sendMessage(connection, { conversationId: LENA, counterpartId: LENA }, { text: 'See you!' }, ctx());
    expect(sent).toEqual({ id: 'aWdfZAG1faXRlbTo3' });
    const [request] = api.calls('POST', `/v25.0/${IG}/messages`);
    expect(request!.headers.authorization).toBe('Bearer IGAA-user-token');
    expect(request!.json()).toEqual({ recipient: { id: LENA }, message: { text: 'See you!' } });
  });

  it('extends a token refused as expired and reads again with the new one', async () => {
    const { connection, tokens } = storedConnection('instagram_login', {
      externalId: IG,
      accountName: 'heraldcoffee',
      accessToken: 'IGAA-old',
      tokenExpiresAt: new Date(Date.now() + 30 * 86_400_000),
    });
    api.on(
      'GET',
      '/v25.0/me/conversations',
      { status: 400, json: { error: { message: 'Error validating access token: Session has expired.', type: 'OAuthException', code: 190 } } },
      { json: CONVERSATIONS },
    );
    api.on('GET', '/refresh_access_token', { json: { access_token: 'IGAA-new', token_type: 'bearer', expires_in: 5_183_944 } });

    const read = await instagramLogin().readMessages(connection, null, { tokens, now: new Date() });
    expect(read.messages).toHaveLength(2);
    expect(api.calls('GET', '/v25.0/me/conversations').map((r) => r.headers.authorization)).toEqual(['Bearer IGAA-old', 'Bearer IGAA-new']);
    expect(tokens.get(connection.id)?.accessToken).toBe('IGAA-new');
  });
});
