// Listmonk live adapter: a post becomes an email campaign to the list chosen at connect, then
// starts sending (or stays a draft with `send: false`).
//
// Sources:
//   https://listmonk.app/docs/apis/campaigns/#post-apicampaigns POST /api/campaigns { name,
//     subject, lists: [id], type: "regular", content_type: "markdown", body, messenger:
//     "email", tags } → { data: { id, uuid, status: "draft", … } }
//   https://listmonk.app/docs/apis/campaigns/#put-apicampaignscampaign_idstatus PUT
//     /api/campaigns/{id}/status { status: "running" } → { data: { …, status: "running" } }
//
// The subject is the `subject` setting, else the text's first line (the title rule of the
// article networks, catalogue/long-form.ts); the body is the rest, as Markdown, with the post's
// images below it. Listmonk takes no idempotency key: an interrupted publish is settled by
// asking (listmonk-reconcile.ts). A campaign created but refused at its start stays a draft in
// Listmonk; the error says which, so nobody sends it twice.
import { PlatformError, TokenExpiredError, type Publisher } from '../publisher';
import { defaultFetch, jsonString, type AdapterOptions } from '../http';
import { articleOf } from '../catalogue/long-form';
import { LISTMONK_MAX_SUBJECT } from '../catalogue/listmonk';
import { mediaItems } from '../media';
import { campaignPage, listmonkAccount, listmonkClient } from './listmonk-api';

export function createListmonkPublisher(options: AdapterOptions = {}): Publisher<'listmonk'> {
  return {
    async publish(connection, request) {
      const fetch = options.fetch ?? defaultFetch();
      const account = listmonkAccount(connection, options.baseUrl);
      if (!connection.accessToken) throw new TokenExpiredError('No Listmonk API credentials are stored for this account; reconnect it to publish.');
      const items = mediaItems(request);
      if (items.some((i) => i.kind === 'video')) throw new PlatformError('Herald sends images in a Listmonk campaign, not videos');
      const { subject, send, tags } = request.settings;
      const article = articleOf(request.content, subject, LISTMONK_MAX_SUBJECT);
      const body = [article.body, ...items.map((item, i) => `![Image ${i + 1}](${item.url})`)].join('\n\n');

      const api = listmonkClient(fetch, account.origin, connection.accessToken, options.timeoutMs);
      const created = await api.call('POST', '/api/campaigns', {
        json: {
          name: article.title,
          subject: article.title,
          lists: [account.listId],
          type: 'regular',
          content_type: 'markdown',
          body,
          messenger: 'email',
          ...(tags?.length ? { tags } : {}),
        },
      });
      const id = jsonString(created.json, 'data', 'id');
      if (!id) throw new PlatformError('Listmonk accepted the campaign but returned no id');
      if (send !== false) {
        try {
          await api.call('PUT', `/api/campaigns/${id}/status`, { json: { status: 'running' } });
        } catch (error) {
          if (!(error instanceof PlatformError)) throw error;
          throw new PlatformError(
            `Listmonk created campaign ${id} but did not start it: ${error.message.replace(/\.$/, '')}. Start it in Listmonk (${campaignPage(account.origin, id)}), or delete it before sending the post again.`,
            error.opts,
          );
        }
      }
      return { postedId: id, permalink: campaignPage(account.origin, id) };
    },
  };
}
