// Lemmy: any instance. The client names their instance, signs in with their username (or
// email) and password, and names the community Herald posts to. Herald signs in once
// (POST /api/v3/user/login → { jwt }, https://join-lemmy.org/api/classes/LemmyHttp.html#login)
// and keeps only the login token, sealed like every token; the password is used for that one
// call and never stored. The account comes from GET /api/v3/site (my_user), the community from
// GET /api/v3/community?name= (https://join-lemmy.org/api/classes/LemmyHttp.html#getCommunity).
// The instance address must be https and pass the outbound guard (the fetch the flow lends).
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery, type Fetcher } from '@/server/platforms/http';
import { instanceOrigin } from '@/server/platforms/mastodon/mastodon-api';
import { communityName } from '@/server/platforms/lemmy/lemmy-api';
import { OAuthFlowError, type CredentialsProvider, type GrantedAccount } from '../oauth-provider';

async function call(fetch: Fetcher, url: string, init: Parameters<typeof callApi>[2], host: string) {
  try {
    return await callApi(fetch, url, init);
  } catch {
    throw new OAuthFlowError(`We could not reach ${host}. Check the instance’s address and try again.`);
  }
}

export const lemmyCredentials: CredentialsProvider = {
  kind: 'credentials',
  label: 'Lemmy',
  choose: false,
  fields: [
    { name: 'instance', label: 'Your Lemmy instance', type: 'text', placeholder: 'lemmy.world', help: 'The address of the instance your account is on.' },
    { name: 'username', label: 'Username or email', type: 'text', placeholder: 'heraldcoffee' },
    { name: 'password', label: 'Password', type: 'password', help: 'Used once to sign in and never stored.' },
    {
      name: 'totp',
      label: 'Two-factor code',
      type: 'text',
      placeholder: '123456',
      help: 'Only if your account has two-factor authentication.',
      optional: true,
    },
    {
      name: 'community',
      label: 'Community to post to',
      type: 'text',
      placeholder: '!coffee@lemmy.world',
      help: 'Its name, or name@instance for a community on another instance.',
    },
  ],
  available: () => true,
  needsDeploymentSetup: false,
  instructions: async () => 'Sign in with your Lemmy account and name the community Herald posts to.',

  async connect(fetch, values): Promise<GrantedAccount[]> {
    const origin = values.instance?.trim() ? instanceOrigin(values.instance) : null;
    if (!origin) throw new OAuthFlowError('Enter your Lemmy instance’s address, for example lemmy.world.');
    const username = values.username?.trim() ?? '';
    const password = values.password ?? '';
    if (!username || !password) throw new OAuthFlowError('Enter your Lemmy username and password.');
    const community = communityName(values.community ?? '');
    if (!community) throw new OAuthFlowError('Enter the community to post to, for example !coffee@lemmy.world.');
    const host = new URL(origin).host;

    const login = await call(
      fetch,
      `${origin}/api/v3/user/login`,
      { json: { username_or_email: username, password, ...(values.totp?.trim() ? { totp_2fa_token: values.totp.trim() } : {}) } },
      host,
    );
    const jwt = jsonString(login.json, 'jwt');
    if (!isSuccess(login) || !jwt) {
      const why = firstJsonString(login.json, ['error', 'message']) ?? `HTTP ${login.status}`;
      throw new OAuthFlowError(`${host} did not accept the sign-in (${why}). Check the username and password.`);
    }
    const auth = { authorization: `Bearer ${jwt}` };
    const site = await call(fetch, `${origin}/api/v3/site`, { headers: auth }, host);
    const person = jsonAt(site.json, 'my_user', 'local_user_view', 'person');
    const personId = jsonString(person, 'id');
    const name = jsonString(person, 'name');
    if (!isSuccess(site) || !personId || !name) throw new OAuthFlowError(`${host} signed you in but did not share your account. Please try again.`);

    const found = await call(fetch, withQuery(`${origin}/api/v3/community`, { name: community }), { headers: auth }, host);
    const c = jsonAt(found.json, 'community_view', 'community');
    const communityId = jsonString(c, 'id');
    if (!isSuccess(found) || !communityId) {
      const why = firstJsonString(found.json, ['error', 'message']) ?? `HTTP ${found.status}`;
      throw new OAuthFlowError(`${host} does not know the community ${community} (${why}).`);
    }
    const communityLabel = `!${jsonString(c, 'name') ?? community.split('@')[0]}@${new URL(jsonString(c, 'actor_id') ?? origin).host}`;
    return [
      {
        // One connection per account and community: the same account may post to several.
        externalId: `${personId}@${host}!${communityId}`,
        accountName: `@${name}@${host} → ${communityLabel}`,
        displayName: jsonString(person, 'display_name') || name,
        avatarUrl: jsonString(person, 'avatar') ?? null,
        accessToken: jwt,
        refreshToken: null,
        expiresAt: null,
        scopes: null,
        kind: `Lemmy account posting to ${communityLabel}`,
        platformData: {
          instanceUrl: origin,
          username: name,
          personId: Number(personId),
          communityId: Number(communityId),
          community: communityLabel,
        },
      },
    ];
  },
};
