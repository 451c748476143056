// WordPress (a self-hosted site): no consent page. The client creates an application password
// for their user (wp-admin → Users → Profile → Application Passwords; WordPress 5.6 and later)
// and types the site's address, the username and that password. The address must pass Herald's
// outbound guard (https, a public host). Before anything is saved Herald reads GET
// /wp-json/wp/v2/users/me?context=edit with the password as HTTP Basic
// (https://developer.wordpress.org/rest-api/reference/users/#retrieve-a-user: `context=edit`
// adds the user's capabilities) and refuses a user who cannot write posts; the site's name comes
// from the API's index, GET /wp-json/ (https://developer.wordpress.org/rest-api/using-the-rest-api/discovery/).
// The password is kept as the connection's (sealed) access token; the site's address and the
// username in platformData.
//
// WordPress.com sites connect through WordPress.com's OAuth instead (wordpress-com.ts).
import { callApi, isSuccess, jsonAt, jsonString, type Fetcher } from '@/server/platforms/http';
import { basicAuthorization, selfHostedApiRoot, wordpressClient } from '@/server/platforms/wordpress/wordpress-api';
import { siteBaseUrl } from '@/server/platforms/long-form';
import { PlatformError } from '@/server/platforms/publisher';
import { OAuthFlowError, type CredentialsProvider, type GrantedAccount } from '../oauth-provider';

export const wordpressCredentials: CredentialsProvider = {
  kind: 'credentials',
  label: 'WordPress',
  choose: false,
  fields: [
    {
      name: 'siteUrl',
      label: 'Site address',
      type: 'url',
      placeholder: 'https://yoursite.com',
      help: 'The address of your WordPress site (with its folder, if WordPress lives in one).',
    },
    { name: 'username', label: 'Username', type: 'text', placeholder: 'Your WordPress username', help: 'The user Herald publishes as.' },
    {
      name: 'applicationPassword',
      label: 'Application password',
      type: 'password',
      placeholder: 'xxxx xxxx xxxx xxxx xxxx xxxx',
      help: 'In wp-admin, open Users → Profile, and under Application Passwords add one named Herald (WordPress 5.6 or later, on an https site).',
    },
  ],
  available: () => true,
  needsDeploymentSetup: false,
  instructions: async () =>
    'Herald publishes to your WordPress site with an application password of your user. Revoking it on your profile in WordPress revokes Herald’s access.',

  async connect(fetch: Fetcher, values): Promise<GrantedAccount[]> {
    const site = siteBaseUrl(values.siteUrl ?? '');
    if (!site.ok) throw new OAuthFlowError(`Enter your WordPress site’s address, for example https://yoursite.com. ${site.reason}`);
    const username = values.username?.trim() ?? '';
    const password = values.applicationPassword?.trim() ?? '';
    if (!username || !password) throw new OAuthFlowError('Enter the username and the application password you created for Herald.');
    const host = new URL(site.base).host;
    let me;
    try {
      me = (await wordpressClient(fetch, selfHostedApiRoot(site.base), basicAuthorization(username, password)).call('GET', '/users/me?context=edit')).json;
    } catch (error) {
      if (error instanceof PlatformError)
        throw new OAuthFlowError(
          `WordPress did not accept the username and application password (${error.message}). Check the site’s address and both values.`,
        );
      throw new OAuthFlowError(`We could not reach ${host}. Check the site’s address and try again.`);
    }
    const userId = jsonString(me, 'id');
    if (!userId) throw new OAuthFlowError(`${host} did not answer as a WordPress site. Check the site’s address.`);
    if (jsonAt(me, 'capabilities', 'edit_posts') === false) {
      throw new OAuthFlowError(`The WordPress user ${username} cannot write posts on ${host}. Use a user who can (an author, editor or administrator).`);
    }
    // The site's name, for the account list; the host when the index does not say.
    const index = await callApi(fetch, `${site.base}/wp-json/`).catch(() => null);
    const name = index && isSuccess(index) ? jsonString(index.json, 'name')?.trim() : undefined;
    const avatars = jsonAt(me, 'avatar_urls');
    const avatar = avatars && typeof avatars === 'object' ? (Object.values(avatars as Record<string, unknown>).at(-1) as string | undefined) : undefined;
    return [
      {
        externalId: `${host}${new URL(site.base).pathname.replace(/\/+$/, '')}#${userId}`,
        accountName: host,
        displayName: name || host,
        avatarUrl: typeof avatar === 'string' ? avatar : null,
        accessToken: password,
        refreshToken: null,
        expiresAt: null,
        scopes: null,
        platformData: { siteUrl: site.base, username, userId },
      },
    ];
  },
};
