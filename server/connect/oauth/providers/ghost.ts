// Ghost: no consent page. The client adds a custom integration in Ghost Admin (Settings →
// Integrations → Add custom integration) and types the site's address and the integration's
// Admin API key ("{id}:{secret}"). The address must pass Herald's outbound guard (https, a
// public host). Herald signs the short-lived Admin API token itself (ghost-api.ts) and, before
// anything is saved, reads GET /ghost/api/admin/site/ for the site's name and icon
// (https://docs.ghost.org/admin-api/#site) and GET /ghost/api/admin/posts/?limit=1, since
// /site/ answers without a key and posts do not: a refused key is caught here, not at the
// first publish. The key is kept as the connection's (sealed) access token; the site's
// address in platformData.
import { jsonString, type Fetcher } from '@/server/platforms/http';
import { ghostClient, parseAdminKey } from '@/server/platforms/ghost/ghost-api';
import { siteBaseUrl } from '@/server/platforms/long-form';
import { PlatformError } from '@/server/platforms/publisher';
import { OAuthFlowError, type CredentialsProvider, type GrantedAccount } from '../oauth-provider';

export const ghostCredentials: CredentialsProvider = {
  kind: 'credentials',
  label: 'Ghost',
  choose: false,
  fields: [
    {
      name: 'siteUrl',
      label: 'Site address',
      type: 'url',
      placeholder: 'https://yoursite.ghost.io',
      help: 'The address of your Ghost site (its admin address if it differs).',
    },
    {
      name: 'adminKey',
      label: 'Admin API key',
      type: 'password',
      placeholder: '24 characters : 64 characters',
      help: 'In Ghost Admin, open Settings → Integrations → Add custom integration, name it Herald and copy its Admin API key.',
    },
  ],
  available: () => true,
  needsDeploymentSetup: false,
  instructions: async () => 'Herald publishes to Ghost through a custom integration of your site. Deleting the integration in Ghost revokes Herald’s access.',

  async connect(fetch: Fetcher, values): Promise<GrantedAccount[]> {
    const site = siteBaseUrl(values.siteUrl ?? '');
    if (!site.ok) throw new OAuthFlowError(`Enter your Ghost site’s address, for example https://yoursite.ghost.io. ${site.reason}`);
    const adminKey = values.adminKey?.trim() ?? '';
    const key = parseAdminKey(adminKey);
    if (!key) throw new OAuthFlowError('Enter the Admin API key as Ghost shows it: 24 characters, a colon, then 64 characters.');
    const api = ghostClient(fetch, site.base, adminKey);
    let info;
    try {
      info = (await api.call('GET', '/site/')).json;
      await api.call('GET', '/posts/?limit=1&fields=id');
    } catch (error) {
      if (error instanceof PlatformError)
        throw new OAuthFlowError(`Ghost did not accept the Admin API key (${error.message}). Check the site’s address and the key.`);
      throw new OAuthFlowError(`We could not reach ${new URL(site.base).host}. Check the site’s address and try again.`);
    }
    const title = jsonString(info, 'site', 'title') || new URL(site.base).host;
    const publicUrl = (jsonString(info, 'site', 'url') ?? site.base).replace(/\/+$/, '');
    return [
      {
        externalId: `${new URL(site.base).host}${new URL(site.base).pathname.replace(/\/+$/, '')}#${key.id}`,
        accountName: new URL(publicUrl).host,
        displayName: title,
        avatarUrl: jsonString(info, 'site', 'icon') ?? jsonString(info, 'site', 'logo') ?? null,
        accessToken: adminKey,
        refreshToken: null,
        expiresAt: null,
        scopes: null,
        platformData: { siteUrl: site.base, publicUrl },
      },
    ];
  },
};
