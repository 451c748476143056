// X's Account Activity payloads with direct messages, as the documentation shows them.
//   https://developer.x.com/en/docs/twitter-api/enterprise/account-activity-api/guides/account-activity-data-objects
//   https://developer.x.com/en/docs/x-api/v1/direct-messages/sending-and-receiving/guides/message-create-object
import { describe, expect, it } from 'vitest';
import { parseXActivity } from './x-activity-webhook';

const ME = '4337869213';
const JORDAN = '3001969357';

const delivery = (events: unknown[]) => ({
  for_user_id: ME,
  direct_message_events: events,
  apps: { '268278': { id: '268278', name: 'Twitter Web Client', url: 'http://twitter.com' } },
  users: {
    [JORDAN]: {
      id: JORDAN,
      created_timestamp: '1422556069340',
      name: 'Jordan Brinks',
      screen_name: 'furiouscamper',
      location: 'Boulder, CO',
      description: 'Alter Ego - Twitter PE opinions-are-my-own',
      url: 'https://t.co/SnxaA15ZuY',
      protected: false,
      verified: false,
      followers_count: 22,
      friends_count: 45,
      statuses_count: 494,
      profile_image_url: 'null',
      profile_image_url_https: 'https://pbs.twimg.com/profile_images/851526626785480705/cW4WTi7C_normal.jpg',
    },
    [ME]: { id: ME, name: 'Herald Coffee', screen_name: 'heraldcoffee', profile_image_url_https: 'https://pbs.twimg.com/profile_images/1/herald_normal.jpg' },
  },
});

const received = {
  type: 'message_create',
  id: '954491830116155396',
  created_timestamp: '1516403560557',
  message_create: {
    target: { recipient_id: ME },
    sender_id: JORDAN,
    source_app_id: '268278',
    message_data: { text: 'Hello World!', entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] } },
  },
};

describe('parseXActivity', () => {
  it('reads a DM received: the one-to-one conversation id, the sender named from the delivery’s users', () => {
    expect(parseXActivity(delivery([received]))).toEqual([
      {
        accountId: ME,
        platforms: ['twitter'],
        messages: [
          {
            id: '954491830116155396',
            conversationId: `${JORDAN}-${ME}`,
            counterpartId: JORDAN,
            authorId: JORDAN,
            authorName: 'Jordan Brinks',
            authorHandle: '@furiouscamper',
            authorAvatarUrl: 'https://pbs.twimg.com/profile_images/851526626785480705/cW4WTi7C_normal.jpg',
            text: 'Hello World!',
            attachmentUrl: null,
            createdAt: new Date(1516403560557),
            fromAccount: false,
          },
        ],
        reviews: [],
      },
    ]);
  });

  it('reads a DM the account sent as its own, to the recipient; a photo’s address; other activity is left out', () => {
    const sent = {
      type: 'message_create',
      id: '954491830116155397',
      created_timestamp: '1516403570000',
      message_create: {
        target: { recipient_id: JORDAN },
        sender_id: ME,
        source_app_id: '268278',
        message_data: {
          text: 'Here is the map https://t.co/abc',
          attachment: {
            type: 'media',
            media: {
              id: 9544918,
              id_str: '9544918',
              type: 'photo',
              media_url_https: 'https://ton.twitter.com/1.1/ton/data/dm/954491830116155397/9544918/map.jpg',
            },
          },
        },
      },
    };
    const [pushed] = parseXActivity({
      ...delivery([sent, { type: 'message_read', id: '1' }]),
      direct_message_indicate_typing_events: [{ created_timestamp: '1' }],
    });
    expect(pushed!.messages).toHaveLength(1);
    expect(pushed!.messages[0]).toMatchObject({
      conversationId: `${JORDAN}-${ME}`,
      counterpartId: JORDAN,
      authorId: ME,
      authorName: 'Herald Coffee',
      fromAccount: true,
      attachmentUrl: 'https://ton.twitter.com/1.1/ton/data/dm/954491830116155397/9544918/map.jpg',
    });
  });

  it('reads a delivery without DMs, or junk, as nothing and never throws', () => {
    const junk: unknown[] = [
      undefined,
      null,
      'x',
      { for_user_id: ME, tweet_create_events: [{}] },
      { for_user_id: ME, direct_message_events: 'x' },
      { for_user_id: 'not-a-number', direct_message_events: [received] },
      { for_user_id: ME, direct_message_events: [null, 1, { type: 'message_create' }, { ...received, message_create: { sender_id: JORDAN } }] },
      JSON.parse(`{"for_user_id":"${ME}","direct_message_events":[{"__proto__":{"type":"message_create"}}]}`),
    ];
    for (const body of junk) expect(parseXActivity(body)).toEqual([]);

    // Users that are not what the documentation says name nobody; the message is still read.
    const odd = parseXActivity({ ...delivery([received]), users: { [JORDAN]: 'x', __proto__: { name: 'x' } } });
    expect(odd[0]!.messages[0]).toMatchObject({ authorName: JORDAN, authorHandle: null });
    expect(parseXActivity({ ...delivery([received]), users: 7 })[0]!.messages[0]!.authorName).toBe(JORDAN);
  });
});
