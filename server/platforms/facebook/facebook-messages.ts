// Facebook Messenger: the conversations between people and the Page, read and answered as the
// Page (externalId = Page id, token = Page access token). The calls and their shapes are in
// graph-messages.ts, shared with Instagram.
//
// Sources:
//   https://developers.facebook.com/docs/graph-api/reference/page/conversations/
//     GET /{page-id}/conversations?fields=participants,updated_time,messages.limit(25){…}
//   https://developers.facebook.com/docs/messenger-platform/reference/send-api/
//     POST /{page-id}/messages { recipient: { id: PSID }, messaging_type: "RESPONSE", message }
//   https://developers.facebook.com/docs/messenger-platform/policy/policy-overview (the 24-hour
//     window: outside it Graph refuses the answer, and its words are passed on)
// A conversation is the person's page-scoped id (PSID), as the webhook names it
// (meta-messaging-webhook.ts). Permissions: pages_messaging (with pages_manage_metadata and
// pages_read_engagement for the conversations read).
import { apiEndpoint, type AdapterOptions } from '../http';
import { metaSession, readMetaMessages, sendMetaMessage, MESSAGE_FIELDS, type MetaAccount, type MetaInbox, type MetaSession } from '../graph-messages';
import type { MessagesClient } from '../conversations';
import type { PublishableConnection, TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { FACEBOOK_DEFAULT_BASE_URL } from './facebook-publisher';

export interface FacebookMessagesOptions extends AdapterOptions {
  /** The most Graph pages one read asks for (graph-messages.ts DEFAULT_MESSAGE_PAGES). */
  maxPages?: number;
}

const MESSENGER: MetaInbox = {
  name: 'Facebook',
  conversationFields: `participants,updated_time,messages.limit(25){${MESSAGE_FIELDS}}`,
  messagingType: true,
  reusableFlag: true,
  handles: false,
};

const pageOf = (connection: PublishableConnection): MetaAccount => ({
  inboxId: connection.externalId,
  senderId: connection.externalId,
  ids: [connection.externalId],
  username: null,
});

export function createFacebookMessagesClient(options: FacebookMessagesOptions = {}): MessagesClient {
  const withSession = <T>(connection: PublishableConnection, tokens: TokenStore, call: (session: MetaSession) => Promise<T>) => {
    const { fetch, baseUrl } = apiEndpoint(options, 'FACEBOOK_GRAPH_BASE_URL', FACEBOOK_DEFAULT_BASE_URL);
    // A Page token does not expire and has no refresh grant: a refused one means reconnecting.
    return withAccessToken(connection, null, tokens, (token) => call(metaSession(fetch, baseUrl, token, MESSENGER.name, options.timeoutMs)));
  };

  return {
    source: 'facebook',

    readMessages: (connection, cursor, { tokens, now }) =>
      withSession(connection, tokens, (session) => readMetaMessages(session, MESSENGER, pageOf(connection), cursor, { maxPages: options.maxPages, now })),

    sendMessage: (connection, to, message, { tokens }) =>
      withSession(connection, tokens, (session) => sendMetaMessage(session, MESSENGER, pageOf(connection), to.counterpartId, message)),
  };
}
