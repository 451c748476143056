// Listmonk (self-hosted newsletters and mailing lists): a post becomes an email campaign to the
// list chosen at connect (platformData.listId), its subject the `subject` setting or else the
// text's first line, its body the text as Markdown, images below it.
//   https://listmonk.app/docs/apis/campaigns/ (POST /api/campaigns: name, subject, lists,
//     type, content_type markdown|html|richtext|plain, body, tags; PUT …/status running)
// Listmonk validates a subject of 1 to 2,000 characters (stdInputMaxLen in its campaigns
// handler); Herald's own cap on a post's text is the body's.
import { z } from 'zod';
import { type PlatformCatalogueEntry } from './entry';
import { noComments } from './comments';
import { noPostMetrics } from './post-metrics';
import { codePointLength } from './text-length';
import { LONG_FORM_MAX_CHARS, LONG_FORM_MEDIA, tagsSetting, titleSetting } from './long-form';
import { ZText } from '@/server/shared/schemas';

export const LISTMONK_MAX_SUBJECT = 2000;

export const listmonk = {
  label: 'Listmonk',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: LONG_FORM_MAX_CHARS, count: codePointLength },
  media: LONG_FORM_MEDIA,
  article: { maxTitle: LISTMONK_MAX_SUBJECT },
  settings: z.strictObject({
    subject: titleSetting(LISTMONK_MAX_SUBJECT).describe('The email’s subject; without one, the first line of the text is the subject and the rest the body'),
    send: z
      .boolean()
      .optional()
      .describe('Starts sending the campaign to the list when the post is published; false leaves it a draft in Listmonk for a last look')
      .meta({ default: true }),
    tags: tagsSetting(10, ZText.trim().min(1).max(200)),
  }),
  // An API user's token does not lapse; it is revoked in Listmonk's Users settings.
  tokensExpire: false,
  postMetrics: noPostMetrics('Listmonk reports a campaign’s views, clicks and bounces (GET /api/campaigns/{id}), which Herald does not read yet'),
  comments: noComments('A newsletter has no comments: readers answer by email, which Herald does not read'),
  // How an interrupted publish is settled (server/platforms/listmonk/listmonk-reconcile.ts).
  reconcile: {
    ask: 'GET /api/campaigns?order_by=created_at&order=DESC: the newest campaigns, matched on the list, the subject and the time (Listmonk takes no idempotency key)',
    docs: 'https://listmonk.app/docs/apis/campaigns/',
  },
} satisfies PlatformCatalogueEntry;
