// The Facebook Messenger client against the documented conversation and Send API shapes, served
// by the local HTTPS stand-in through the guarded client.
//   https://developers.facebook.com/docs/graph-api/reference/page/conversations/ (the read)
//   https://developers.facebook.com/docs/messenger-platform/conversations (conversation shape)
//   https://developers.facebook.com/docs/graph-api/reference/message (message fields, attachments)
//   https://developers.facebook.com/docs/messenger-platform/reference/send-api/ (the answer)
//   https://developers.facebook.com/docs/graph-api/guides/error-handling (190, #10 outside the window)
//   https://developers.facebook.com/docs/graph-api/results (cursor paging)
import { describe, expect, it } from 'vitest';
import type { ConversationsContext } from '../conversations';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { createFacebookMessagesClient, type FacebookMessagesOptions } from './facebook-messages';

const PAGE = '546349135390552';
const MAYA = '7101149746568522'; // Maya's page-scoped id
const TOMAS = '6892214730110457';
const CONVERSATIONS = `/v25.0/${PAGE}/conversations`;
const SEND = `/v25.0/${PAGE}/messages`;
const FIELDS = 'participants,updated_time,messages.limit(25){id,from,to,message,created_time,attachments}';

const api = useFakePlatformApi();
const connection = liveConnection('facebook', { externalId: PAGE, accountName: 'Herald Coffee', accessToken: 'EAAB-page-token' });
const ctx = (): ConversationsContext => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T12:00:00Z') });
const client = (extra: Partial<FacebookMessagesOptions> = {}) => createFacebookMessagesClient({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0`, ...extra });

const page = { id: PAGE, name: 'Herald Coffee', email: `${PAGE}@facebook.com` };
const maya = { id: MAYA, name: 'Maya Lindqvist', email: `${MAYA}@facebook.com` };
const tomas = { id: TOMAS, name: 'Tomás Reyes', email: `${TOMAS}@facebook.com` };

/** A conversation as GET /{page-id}/conversations returns it with the catalogue's fields. */
const conversation = (id: string, person: typeof maya, updated: string, messages: unknown[], paging?: unknown) => ({
  id,
  updated_time: updated,
  participants: { data: [person, page] },
  messages: { data: messages, ...(paging ? { paging } : {}) },
});
const message = (id: string, from: typeof maya, to: typeof maya, text: string, at: string, extra: Record<string, unknown> = {}) => ({
  id,
  from,
  to: { data: [to] },
  message: text,
  created_time: at,
  ...extra,
});

const FIRST_PAGE = {
  data: [
    conversation('t_10161117434308444', maya, '2026-11-27T10:16:05+0000', [
      message('m_mayaAnswer', page, maya, 'Yes, every Saturday at ten!', '2026-11-27T10:16:05+0000'),
      message('m_mayaPhoto', maya, page, 'Is this the grinder you use?', '2026-11-27T10:15:42+0000', {
        attachments: {
          data: [
            {
              id: '1193328359195158',
              mime_type: 'image/jpeg',
              name: 'image.jpg',
              image_data: { url: 'https://scontent.xx.fbcdn.net/v/grinder.jpg', width: 960, height: 720 },
            },
          ],
        },
      }),
      message('m_mayaFirst', maya, page, 'Do you still do the Saturday cupping sessions?', '2026-11-27T10:14:03+0000'),
    ]),
  ],
  paging: {
    cursors: { before: 'QVFIUmx1', after: 'QVFIUjFm' },
    next: `https://graph.facebook.com/v25.0/${PAGE}/conversations?after=QVFIUjFm`,
  },
};
const SECOND_PAGE = {
  data: [conversation('t_3567590438533', tomas, '2026-11-26T18:02:11+0000', [message('m_tomas', tomas, page, 'Open on Sunday?', '2026-11-26T18:02:11+0000')])],
  paging: { cursors: { before: 'QVFIUmFi', after: 'QVFIUmNk' } },
};

describe('Facebook messages', () => {
  it('reads every page of the Page’s conversations: the person’s id is the conversation, the Page’s own answers are the account’s', async () => {
    api.on('GET', CONVERSATIONS, { json: FIRST_PAGE }, { json: SECOND_PAGE });

    const read = await client().readMessages(connection, null, ctx());

    const [first, second] = api.calls('GET', CONVERSATIONS);
    expect(first!.headers.authorization).toBe('Bearer EAAB-page-token');
    expect(Object.fromEntries(first!.query)).toEqual({ fields: FIELDS });
    expect(Object.fromEntries(second!.query)).toEqual({ fields: FIELDS, after: 'QVFIUjFm' });

    expect(read.messages.map((m) => [m.id, m.conversationId, m.counterpartId, m.authorId, m.fromAccount])).toEqual([
      ['m_mayaAnswer', MAYA, MAYA, PAGE, true],
      ['m_mayaPhoto', MAYA, MAYA, MAYA, false],
      ['m_mayaFirst', MAYA, MAYA, MAYA, false],
      ['m_tomas', TOMAS, TOMAS, TOMAS, false],
    ]);
    expect(read.messages[1]).toEqual({
      id: 'm_mayaPhoto',
      conversationId: MAYA,
      counterpartId: MAYA,
      authorId: MAYA,
      authorName: 'Maya Lindqvist',
      authorHandle: null,
      text: 'Is this the grinder you use?',
      attachmentUrl: 'https://scontent.xx.fbcdn.net/v/grinder.jpg',
      createdAt: new Date('2026-11-27T10:15:42Z'),
      fromAccount: false,
    });
    expect(read.messages[0]!.authorName).toBe('Herald Coffee');
    // The cursor is the newest message's time.
    expect(read.cursor).toBe('2026-11-27T10:16:05.000Z');
  });

  it('from a cursor, reads only what is not older: an older conversation ends the read, a full page of newer messages is followed', async () => {
    const cursor = '2026-11-27T10:15:00.000Z';
    api.on('GET', CONVERSATIONS, {
      json: {
        data: [
          conversation(
            't_10161117434308444',
            maya,
            '2026-11-27T11:40:00+0000',
            [
              message('m_new2', maya, page, 'Also: oat milk?', '2026-11-27T11:40:00+0000'),
              message('m_new1', maya, page, 'One more question', '2026-11-27T11:39:00+0000'),
            ],
            { cursors: { after: 'TVNHUzI=' }, next: `https://graph.facebook.com/v25.0/t_10161117434308444/messages?after=TVNHUzI=` },
          ),
          conversation('t_3567590438533', tomas, '2026-11-26T18:02:11+0000', [message('m_tomas', tomas, page, 'Open on Sunday?', '2026-11-26T18:02:11+0000')]),
        ],
        paging: FIRST_PAGE.paging,
      },
    });
    api.on('GET', '/v25.0/t_10161117434308444/messages', {
      json: {
        data: [
          message('m_answer', page, maya, 'Yes, every Saturday at ten!', '2026-11-27T10:16:05+0000'),
          message('m_old', maya, page, 'Do you still do the Saturday cupping sessions?', '2026-11-27T10:14:03+0000'),
        ],
        paging: { cursors: { after: 'TVNHUzQ=' }, next: 'https://graph.facebook.com/v25.0/t_10161117434308444/messages?after=TVNHUzQ=' },
      },
    });

    const read = await client().readMessages(connection, cursor, ctx());

    expect(read.messages.map((m) => m.id)).toEqual(['m_new2', 'm_new1', 'm_answer']);
    expect(api.calls('GET', CONVERSATIONS)).toHaveLength(1); // Tomás's conversation is older: no next page
    const [more] = api.calls('GET', '/v25.0/t_10161117434308444/messages');
    expect(Object.fromEntries(more!.query)).toEqual({ fields: 'id,from,to,message,created_time,attachments', after: 'TVNHUzI=' });
    expect(api.calls('GET', '/v25.0/t_10161117434308444/messages')).toHaveLength(1); // m_old is older: stop
    expect(read.cursor).toBe('2026-11-27T11:40:00.000Z');

    // Nothing new: the cursor stays.
    api.on('GET', CONVERSATIONS, { json: SECOND_PAGE });
    expect(await client().readMessages(connection, read.cursor, ctx())).toEqual({ messages: [], cursor: read.cursor });
  });

  it('out of calls, stops its cursor where every conversation before is read in full', async () => {
    api.on('GET', CONVERSATIONS, {
      json: {
        data: [
          conversation(
            't_10161117434308444',
            maya,
            '2026-11-27T11:40:00+0000',
            [message('m_new2', maya, page, 'Also: oat milk?', '2026-11-27T11:40:00+0000')],
            { cursors: { after: 'TVNHUzI=' }, next: 'https://graph.facebook.com/v25.0/t_10161117434308444/messages?after=TVNHUzI=' },
          ),
          conversation('t_3567590438533', tomas, '2026-11-27T10:30:00+0000', [message('m_tomas2', tomas, page, 'And Monday?', '2026-11-27T10:30:00+0000')]),
        ],
      },
    });

    const read = await client({ maxPages: 1 }).readMessages(connection, '2026-11-27T10:00:00.000Z', ctx());

    // Maya's conversation needed a page more than the one call allowed: what came is kept, and
    // the cursor stays at Tomás's, read in full, so the next read takes Maya's again.
    expect(read.messages.map((m) => m.id)).toEqual(['m_new2', 'm_tomas2']);
    expect(read.cursor).toBe('2026-11-27T10:30:00.000Z');
  });

  it('stops at its page cap', async () => {
    api.on('GET', CONVERSATIONS, { json: FIRST_PAGE }, { json: SECOND_PAGE });
    const read = await client({ maxPages: 1 }).readMessages(connection, null, ctx());
    expect(api.calls('GET', CONVERSATIONS)).toHaveLength(1);
    expect(read.messages).toHaveLength(3);
  });

  it('answers the person with messaging_type RESPONSE; an image goes first as its own message', async () => {
    api.on('POST', SEND, { json: { recipient_id: MAYA, message_id: 'm_textReply' } });
    expect(await client().sendMessage(connection, { conversationId: MAYA, counterpartId: MAYA }, { text: 'See you Saturday!' }, ctx())).toEqual({
      id: 'm_textReply',
    });
    const [text] = api.calls('POST', SEND);
    expect(text!.headers.authorization).toBe('Bearer EAAB-page-token');
    expect(text!.headers['content-type']).toBe('application/json');
    expect(text!.json()).toEqual({ recipient: { id: MAYA }, messaging_type: 'RESPONSE', message: { text: 'See you Saturday!' } });

    api.reset();
    api.on('POST', SEND, { json: { recipient_id: MAYA, message_id: 'm_image' } }, { json: { recipient_id: MAYA, message_id: 'm_caption' } });
    const sent = await client().sendMessage(
      connection,
      { conversationId: MAYA, counterpartId: MAYA },
      { text: 'This one', imageUrl: 'https://media.herald.example/grinder.jpg' },
      ctx(),
    );
    expect(sent).toEqual({ id: 'm_caption' });
    expect(api.calls('POST', SEND).map((r) => r.json())).toEqual([
      {
        recipient: { id: MAYA },
        messaging_type: 'RESPONSE',
        message: { attachment: { type: 'image', payload: { url: 'https://media.herald.example/grinder.jpg', is_reusable: false } } },
      },
      { recipient: { id: MAYA }, messaging_type: 'RESPONSE', message: { text: 'This one' } },
    ]);
  });

  it('passes a refusal on in Facebook’s words: outside the 24-hour window, a failed image sends no text', async () => {
    const outside = {
      error: {
        message: '(#10) This message is sent outside of allowed window.',
        type: 'OAuthException',
        code: 10,
        error_subcode: 2018278,
        fbtrace_id: 'AbC1dE2fG3h',
      },
    };
    api.on('POST', SEND, { status: 400, json: outside });
    const error = await failure(client().sendMessage(connection, { conversationId: MAYA, counterpartId: MAYA }, { text: 'Hi' }, ctx()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('(#10) This message is sent outside of allowed window.');

    api.reset();
    api.on('POST', SEND, { status: 400, json: { error: { message: '(#100) Failed to fetch the file from the url', type: 'OAuthException', code: 100 } } });
    const refused = await failure(
      client().sendMessage(connection, { conversationId: MAYA, counterpartId: MAYA }, { text: 'Hi', imageUrl: 'https://x.example/a.jpg' }, ctx()),
    );
    expect(refused.message).toBe('(#100) Failed to fetch the file from the url');
    expect(api.calls('POST', SEND)).toHaveLength(1);
  });

  it('fails the connection with TokenExpiredError for a revoked token (190) or a bare 401', async () => {
    const revoked = {
      error: {
        message: 'Error validating access token: The user has not authorized application 1234567890123456.',
        type: 'OAuthException',
        code: 190,
        error_subcode: 458,
        fbtrace_id: 'EpT2uV6qR8wX0zB2cF4gH5i',
      },
    };
    api.on('GET', CONVERSATIONS, { status: 400, json: revoked });
    const error = await failure(client().readMessages(connection, null, ctx()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe(revoked.error.message);

    api.on('GET', CONVERSATIONS, { status: 401, json: {} });
    expect(await failure(client().readMessages(connection, null, ctx()))).toBeInstanceOf(TokenExpiredError);

    api.on('GET', CONVERSATIONS, { status: 500, json: { error: { message: 'An unexpected error has occurred. Please retry your request later.', code: 2 } } });
    const down = await failure(client().readMessages(connection, null, ctx()));
    expect(down).not.toBeInstanceOf(TokenExpiredError);
    expect(down.message).toBe('An unexpected error has occurred. Please retry your request later.');
  });
});
