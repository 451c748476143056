// Medium: no consent page. The client types an integration token of their Medium account. Herald
// checks it with GET /v1/me (https://github.com/Medium/medium-api-docs, "3.1. Users") before
// anything is saved, then lists the account's publications (GET /v1/users/{userId}/publications,
// "3.2. Publications": those it writes for, and up to 200 it only follows) and keeps those whose
// contributors (GET /v1/publications/{id}/contributors) include the account as an editor or a
// writer. The client chooses the profile or one of those publications. The token is kept as the
// connection's (sealed) access token; the user id, and the publication and role, in platformData.
//
// Said plainly on the form: Medium's API is no longer supported by Medium (its documentation
// repository was archived on 2 March 2023 with "The Medium API is no longer supported"), and
// Medium no longer issues new integration tokens; a token issued before still works.
import { jsonString, type Fetcher } from '@/server/platforms/http';
import { mediumClient } from '@/server/platforms/medium/medium-api';
import { PlatformError } from '@/server/platforms/publisher';
import { OAuthFlowError, type CredentialsProvider, type GrantedAccount } from '../oauth-provider';

/** The most publications whose contributors are read at connect (each is one call). */
const PUBLICATIONS_CHECKED = 25;

export const MEDIUM_UNSUPPORTED_NOTICE =
  'Medium no longer supports its API (its documentation was archived on 2 March 2023: “The Medium API is no longer supported”) and no longer issues new integration tokens. A token you already have still works; without one, Medium cannot be connected.';

export const mediumCredentials: CredentialsProvider = {
  kind: 'credentials',
  label: 'Medium',
  choose: true,
  fields: [
    {
      name: 'token',
      label: 'Integration token',
      type: 'password',
      placeholder: 'Your existing Medium integration token',
      help: `In Medium’s settings, under Integration tokens, copy the token you created earlier. ${MEDIUM_UNSUPPORTED_NOTICE}`,
    },
  ],
  available: () => true,
  needsDeploymentSetup: false,
  instructions: async () =>
    `Herald publishes to Medium with an integration token of your account, to your profile or a publication you write for. ${MEDIUM_UNSUPPORTED_NOTICE}`,

  async connect(fetch: Fetcher, values): Promise<GrantedAccount[]> {
    const token = values.token?.trim() ?? '';
    if (!token) throw new OAuthFlowError('Enter your Medium integration token.');
    const api = mediumClient({ fetch }, token);
    let me: unknown;
    let publications: unknown;
    const roles = new Map<string, string>();
    try {
      me = await api.call('GET', '/me');
      const userId = jsonString(me, 'id');
      if (!userId) throw new OAuthFlowError('Medium did not say which account the token belongs to. Check the token and try again.');
      publications = await api.call('GET', `/users/${encodeURIComponent(userId)}/publications`);
      for (const publication of (Array.isArray(publications) ? publications : []).slice(0, PUBLICATIONS_CHECKED)) {
        const id = jsonString(publication, 'id');
        if (!id) continue;
        const contributors = await api.call('GET', `/publications/${encodeURIComponent(id)}/contributors`);
        const mine = (Array.isArray(contributors) ? contributors : []).find((c) => jsonString(c, 'userId') === userId);
        const role = jsonString(mine, 'role');
        if (role === 'editor' || role === 'writer') roles.set(id, role);
      }
    } catch (error) {
      if (error instanceof OAuthFlowError) throw error;
      if (error instanceof PlatformError) throw new OAuthFlowError(`Medium did not accept the integration token (${error.message}). Check it.`);
      throw new OAuthFlowError('We could not reach Medium just now. Try again in a moment.');
    }
    const userId = jsonString(me, 'id')!;
    const username = jsonString(me, 'username') ?? userId;
    const base = { accessToken: token, refreshToken: null, expiresAt: null, scopes: null };
    const profile: GrantedAccount = {
      externalId: userId,
      accountName: `@${username}`,
      displayName: jsonString(me, 'name') || username,
      avatarUrl: jsonString(me, 'imageUrl') ?? null,
      ...base,
      platformData: { userId, username },
    };
    const writable = (Array.isArray(publications) ? publications : []).flatMap((publication): GrantedAccount[] => {
      const id = jsonString(publication, 'id');
      const role = id ? roles.get(id) : undefined;
      if (!id || !role) return [];
      const name = jsonString(publication, 'name') || id;
      return [
        {
          externalId: id,
          accountName: jsonString(publication, 'url') ?? name,
          displayName: name,
          avatarUrl: jsonString(publication, 'imageUrl') ?? null,
          ...base,
          platformData: { userId, username, publicationId: id, publicationName: name, role },
        },
      ];
    });
    return [profile, ...writable];
  },
};
