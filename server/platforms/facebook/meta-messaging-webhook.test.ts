// Meta's messaging webhook payloads, as the documentation shows them, read as direct messages.
//   https://developers.facebook.com/docs/messenger-platform/webhooks (the envelope)
//   https://developers.facebook.com/docs/messenger-platform/reference/webhook-events/messages
//   https://developers.facebook.com/docs/messenger-platform/reference/webhook-events/message-echoes
//   https://developers.facebook.com/docs/messenger-platform/reference/webhook-events/message-deliveries,
//     …/message-reads, …/message-reactions (events without `message`: nothing to store)
//   https://developers.facebook.com/docs/messenger-platform/instagram/features/webhook (object instagram)
import { describe, expect, it } from 'vitest';
import { parseMetaMessaging } from './meta-messaging-webhook';

const PAGE = '546349135390552';
const PSID = '7101149746568522';
const IG = '17841405822304914';
const IGSID = '1254459154682919';

describe('parseMetaMessaging', () => {
  it('reads a text message to the Page: the person’s id is the conversation and, until a read names them, their name', () => {
    const body = {
      object: 'page',
      entry: [
        {
          id: PAGE,
          time: 1764238542478,
          messaging: [
            {
              sender: { id: PSID },
              recipient: { id: PAGE },
              timestamp: 1764238542120,
              message: { mid: 'm_AG5Hz2Uq7tuwNEhXfYYKj8mJEM_QPpz5jdCK48PnKAjSdjfipqxqMvK8ma6AC8fplwlqLP_5cgXIbu7I3rBN0P', text: 'hello, world!' },
            },
          ],
        },
      ],
    };
    expect(parseMetaMessaging(body)).toEqual([
      {
        accountId: PAGE,
        platforms: ['facebook'],
        messages: [
          {
            id: 'm_AG5Hz2Uq7tuwNEhXfYYKj8mJEM_QPpz5jdCK48PnKAjSdjfipqxqMvK8ma6AC8fplwlqLP_5cgXIbu7I3rBN0P',
            conversationId: PSID,
            counterpartId: PSID,
            authorId: PSID,
            authorName: PSID,
            authorHandle: null,
            text: 'hello, world!',
            attachmentUrl: null,
            createdAt: new Date(1764238542120),
            fromAccount: false,
          },
        ],
        reviews: [],
      },
    ]);
  });

  it('reads an echo as the account’s own message in the person’s conversation, and an image’s address', () => {
    const body = {
      object: 'page',
      entry: [
        {
          id: PAGE,
          time: 1764238600000,
          messaging: [
            {
              sender: { id: PAGE },
              recipient: { id: PSID },
              timestamp: 1764238599870,
              message: { is_echo: true, app_id: 1517776481860111, metadata: 'herald', mid: 'm_echo1', text: 'Yes, every Saturday at ten!' },
            },
            {
              sender: { id: PSID },
              recipient: { id: PAGE },
              timestamp: 1764238610000,
              message: {
                mid: 'm_image1',
                attachments: [{ type: 'image', payload: { url: 'https://scontent.xx.fbcdn.net/v/t1.15752-9/490986808_1193328359195158.jpg' } }],
              },
            },
            // A delivery, a read and a reaction: not messages.
            { sender: { id: PSID }, recipient: { id: PAGE }, delivery: { mids: ['m_echo1'], watermark: 1764238599870 } },
            { sender: { id: PSID }, recipient: { id: PAGE }, timestamp: 1764238620000, read: { watermark: 1764238599870 } },
            {
              sender: { id: PSID },
              recipient: { id: PAGE },
              timestamp: 1764238630000,
              reaction: { mid: 'm_echo1', action: 'react', reaction: 'love', emoji: '❤' },
            },
          ],
        },
      ],
    };
    const [pushed] = parseMetaMessaging(body);
    expect(pushed!.messages.map((m) => [m.id, m.conversationId, m.counterpartId, m.authorId, m.fromAccount])).toEqual([
      ['m_echo1', PSID, PSID, PAGE, true],
      ['m_image1', PSID, PSID, PSID, false],
    ]);
    expect(pushed!.messages[0]!.text).toBe('Yes, every Saturday at ten!');
    expect(pushed!.messages[1]).toMatchObject({ text: '', attachmentUrl: 'https://scontent.xx.fbcdn.net/v/t1.15752-9/490986808_1193328359195158.jpg' });
  });

  it('reads object instagram for either Instagram login, one item per entry; an unsent message is left out', () => {
    const body = {
      object: 'instagram',
      entry: [
        {
          id: IG,
          time: 1764238700000,
          messaging: [
            {
              sender: { id: IGSID },
              recipient: { id: IG },
              timestamp: 1764238699000,
              message: { mid: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3', text: 'Do you ship to Lyon?' },
            },
            {
              sender: { id: IGSID },
              recipient: { id: IG },
              timestamp: 1764238705000,
              message: { mid: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3', is_deleted: true },
            },
            {
              sender: { id: IG },
              recipient: { id: IGSID },
              timestamp: 1764238710000,
              message: { mid: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE4', text: 'We do!', is_echo: true },
            },
          ],
        },
        // An entry with changes only (ratings, read elsewhere): nothing here.
        { id: '17841400000000000', time: 1764238700000, changes: [{ field: 'comments', value: {} }] },
      ],
    };
    expect(parseMetaMessaging(body)).toEqual([
      {
        accountId: IG,
        platforms: ['instagram', 'instagram_login'],
        messages: [
          expect.objectContaining({ id: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3', conversationId: IGSID, fromAccount: false, text: 'Do you ship to Lyon?' }),
          expect.objectContaining({ id: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE4', conversationId: IGSID, authorId: IG, fromAccount: true }),
        ],
        reviews: [],
      },
    ]);
  });

  it('reads the standby channel like messaging (another app owns the conversation)', () => {
    const body = {
      object: 'page',
      entry: [
        {
          id: PAGE,
          time: 1,
          standby: [{ sender: { id: PSID }, recipient: { id: PAGE }, timestamp: 1764238800000, message: { mid: 'm_standby', text: 'still there?' } }],
        },
      ],
    };
    expect(parseMetaMessaging(body)[0]!.messages.map((m) => m.id)).toEqual(['m_standby']);
  });

  it('reads junk as nothing and never throws', () => {
    const hostile = JSON.parse('{"object":"page","entry":[{"id":"1","__proto__":{"messaging":[1]},"messaging":[{"__proto__":{"x":1}}]}]}');
    const junk: unknown[] = [
      undefined,
      null,
      'page',
      42,
      [],
      {},
      { object: 'page' },
      { object: 'page', entry: 'x' },
      { object: 'user', entry: [{ id: '1', messaging: [{ sender: { id: '2' }, recipient: { id: '1' }, message: { mid: 'm', text: 'x' } }] }] },
      {
        object: 'page',
        entry: [null, 7, { id: {} }, { id: PAGE, messaging: 'x' }, { id: PAGE, messaging: [null, { sender: null }, { sender: { id: PSID } }] }],
      },
      { object: 'page', entry: [{ id: PAGE, messaging: [{ sender: { id: PSID }, recipient: { id: PAGE }, message: { mid: '', text: 'x' } }] }] },
      {
        object: 'page',
        entry: [{ id: PAGE, messaging: [{ sender: { id: PSID }, recipient: { id: PAGE }, message: { mid: 'm', attachments: [null, { type: 'image' }] } }] }],
      },
      hostile,
    ];
    for (const body of junk) {
      const parsed = parseMetaMessaging(body);
      expect(Array.isArray(parsed)).toBe(true);
      for (const items of parsed) for (const m of items.messages) expect(m.attachmentUrl).toBeNull();
    }
    expect(
      parseMetaMessaging({
        object: 'page',
        entry: [{ id: PAGE, messaging: [{ sender: { id: PSID }, recipient: { id: PAGE }, message: { mid: 'm', attachments: [null, { type: 'image' }] } }] }],
      }),
    ).toHaveLength(1);
    expect(parseMetaMessaging(hostile)).toEqual([]);
  });
});
