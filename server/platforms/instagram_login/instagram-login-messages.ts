// Instagram direct messages through Instagram Login: graph.instagram.com with the account's
// Instagram user token, GET /me/conversations and POST /{ig-user-id}/messages. The client is the
// Instagram one (server/platforms/instagram/instagram-messages.ts) in this flavour.
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/conversations-api
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/messaging-api
import { createInstagramMessagesClient, type InstagramMessagesOptions } from '../instagram/instagram-messages';
import { INSTAGRAM_LOGIN } from './instagram-login';

export const createInstagramLoginMessagesClient = (options: InstagramMessagesOptions = {}) => createInstagramMessagesClient(options, INSTAGRAM_LOGIN);
