// Listmonk: a self-hosted newsletter server. The client names their server, an API user and
// its token (Listmonk 4 and later: Admin → Users → New, type "API"), and the list Herald sends
// to. Herald checks them with GET /api/lists?per_page=all
// (https://listmonk.app/docs/apis/lists/#get-apilists) before anything is stored; the token is
// sealed like every token. The server's address must pass the outbound guard (siteBaseUrl).
import { callApi, isSuccess, jsonAt, jsonString, type Fetcher } from '@/server/platforms/http';
import { siteBaseUrl } from '@/server/platforms/long-form';
import { OAuthFlowError, type CredentialsProvider, type GrantedAccount } from '../oauth-provider';

export const listmonkCredentials: CredentialsProvider = {
  kind: 'credentials',
  label: 'Listmonk',
  choose: false,
  fields: [
    {
      name: 'server',
      label: 'Your Listmonk server',
      type: 'text',
      placeholder: 'news.heraldcoffee.example',
      help: 'The address you open Listmonk’s admin at.',
    },
    {
      name: 'apiUser',
      label: 'API user',
      type: 'text',
      placeholder: 'herald',
      help: 'An API user made in Listmonk under Admin → Users (Listmonk 4 or later).',
    },
    { name: 'token', label: 'API token', type: 'password', help: 'Shown once when the API user is made.' },
    { name: 'list', label: 'List to send to', type: 'text', placeholder: 'Newsletter', help: 'The list’s name or number, as Listmonk shows it under Lists.' },
  ],
  available: () => true,
  needsDeploymentSetup: false,
  instructions: async () => 'Name your Listmonk server, an API user and its token, and the list Herald sends campaigns to.',

  async connect(fetch: Fetcher, values): Promise<GrantedAccount[]> {
    const site = siteBaseUrl(values.server ?? '');
    if (!site.ok) throw new OAuthFlowError(site.reason === 'Enter the site’s address.' ? 'Enter your Listmonk server’s address.' : site.reason);
    const apiUser = values.apiUser?.trim() ?? '';
    const token = values.token?.trim() ?? '';
    const wanted = values.list?.trim() ?? '';
    if (!apiUser || !token) throw new OAuthFlowError('Enter the API user and its token.');
    if (!wanted) throw new OAuthFlowError('Enter the list to send to.');
    const host = new URL(site.base).host;
    const credentials = `${apiUser}:${token}`;

    let answer;
    try {
      answer = await callApi(fetch, `${site.base}/api/lists?per_page=all`, { headers: { authorization: `token ${credentials}` } });
    } catch {
      throw new OAuthFlowError(`We could not reach ${host}. Check the server’s address and try again.`);
    }
    if (!isSuccess(answer)) {
      const why = jsonString(answer.json, 'message') ?? `HTTP ${answer.status}`;
      throw new OAuthFlowError(
        answer.status === 401 || answer.status === 403
          ? `${host} did not accept the API user and token (${why}). Check them, and that the user’s role may read lists and manage campaigns.`
          : `${host} did not answer as a Listmonk server (${why}).`,
      );
    }
    const results = jsonAt(answer.json, 'data', 'results');
    const lists = (Array.isArray(results) ? results : []).map((l) => ({ id: jsonString(l, 'id') ?? '', name: jsonString(l, 'name') ?? '' }));
    const list = lists.find((l) => l.id === wanted.replace(/^#/, '')) ?? lists.find((l) => l.name.toLowerCase() === wanted.toLowerCase());
    if (!list?.id) {
      const known = lists.map((l) => l.name).join(', ');
      throw new OAuthFlowError(`${host} has no list called ${wanted}${known ? ` (its lists: ${known})` : ''}.`);
    }
    return [
      {
        // One connection per server and list: the same server may be connected for several lists.
        externalId: `${host}#list-${list.id}`,
        accountName: `${host} → ${list.name}`,
        displayName: list.name,
        avatarUrl: null,
        accessToken: credentials,
        refreshToken: null,
        expiresAt: null,
        scopes: null,
        kind: `Listmonk list on ${host}`,
        platformData: { serverUrl: site.base, listId: Number(list.id), listName: list.name, apiUser },
      },
    ];
  },
};
