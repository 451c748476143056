// Instagram direct messages, in either flavour (instagram-api.ts), read and answered through
// the calls graph-messages.ts shares with Messenger:
//   - Facebook Login (`instagram`): the Messenger Platform's Instagram messaging, through the
//     Facebook Page the professional account is linked to, with that Page's token (the token the
//     connection holds). GET /{page-id}/conversations?platform=instagram, POST /{page-id}/messages.
//     https://developers.facebook.com/docs/messenger-platform/instagram/features/conversations
//     https://developers.facebook.com/docs/messenger-platform/instagram/features/send-message
//   - Instagram Login (`instagram_login`): graph.instagram.com with the Instagram user token.
//     GET /me/conversations?platform=instagram, POST /{ig-user-id}/messages.
//     https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/conversations-api
//     https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/messaging-api
// In a conversation the account appears as its Instagram account id (the connection's
// externalId) with its username; the person as their Instagram-scoped id (IGSID) with theirs.
// A conversation is the IGSID, as the webhook names it (meta-messaging-webhook.ts). Only the 20
// most recent messages of a conversation can be read (graph reference, Conversation).
// Permissions: instagram_manage_messages (with instagram_basic and pages_manage_metadata) through
// Facebook Login; instagram_business_manage_messages through Instagram Login.
import type { AdapterOptions } from '../http';
import { metaSession, readMetaMessages, sendMetaMessage, MESSAGE_FIELDS, type MetaAccount, type MetaInbox, type MetaSession } from '../graph-messages';
import type { MessagesClient } from '../conversations';
import type { PublishableConnection, TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { INSTAGRAM_FACEBOOK_LOGIN, instagramEndpoint, type InstagramApi } from './instagram-api';

export interface InstagramMessagesOptions extends AdapterOptions {
  /** The most Graph pages one read asks for (graph-messages.ts DEFAULT_MESSAGE_PAGES). */
  maxPages?: number;
}

/**
 * The account's inbox. Through Facebook Login the inbox is the linked Page's: its id where the
 * connection stored one (platformData.pageId), else `me`, which a Page token names the Page by
 * (https://developers.facebook.com/docs/graph-api/overview#me), so no call is spent finding it.
 */
function accountOf(connection: PublishableConnection, flavour: InstagramApi): MetaAccount {
  const username = connection.accountName.replace(/^@/, '') || null;
  if (flavour.platform === 'instagram_login') {
    return { inboxId: 'me', senderId: connection.externalId, ids: [connection.externalId], username };
  }
  const stored = connection.platformData?.pageId;
  const pageId = typeof stored === 'string' && stored ? stored : typeof stored === 'number' ? String(stored) : 'me';
  return { inboxId: pageId, senderId: pageId, ids: [connection.externalId], username };
}

export function createInstagramMessagesClient(options: InstagramMessagesOptions = {}, flavour: InstagramApi = INSTAGRAM_FACEBOOK_LOGIN): MessagesClient {
  const inbox: MetaInbox = {
    name: flavour.name,
    platformParam: 'instagram',
    conversationFields: `participants,messages{${MESSAGE_FIELDS}}`,
    messagingType: false,
    reusableFlag: false,
    handles: true,
  };
  const withSession = <T>(connection: PublishableConnection, tokens: TokenStore, call: (session: MetaSession) => Promise<T>) => {
    const { fetch, baseUrl, refresher } = instagramEndpoint(options, flavour);
    return withAccessToken(connection, refresher, tokens, (token) => call(metaSession(fetch, baseUrl, token, inbox.name, options.timeoutMs)));
  };

  return {
    source: flavour.platform,

    readMessages: (connection, cursor, { tokens, now }) =>
      withSession(connection, tokens, (session) =>
        readMetaMessages(session, inbox, accountOf(connection, flavour), cursor, { maxPages: options.maxPages, now }),
      ),

    sendMessage: (connection, to, message, { tokens }) =>
      withSession(connection, tokens, (session) => sendMetaMessage(session, inbox, accountOf(connection, flavour), to.counterpartId, message)),
  };
}
