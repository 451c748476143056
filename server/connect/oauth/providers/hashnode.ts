// Hashnode: no consent page. The client generates a Personal Access Token in Hashnode
// (Settings → Developer, "Generate New Token") and types it here. Herald checks it with the
// `me` query (https://apidocs.hashnode.com/, "Authentication": the token in the Authorization
// header) before anything is saved, reading the account and the publications (blogs) it can
// publish to: one account per publication, the client choosing when there are several. The
// token is kept as the connection's (sealed) access token; the publication's id in
// platformData. A token does not lapse; revoking it in Hashnode makes the next publish ask for
// a reconnect.
import { jsonAt, jsonString } from '@/server/platforms/http';
import { hashnodeClient, ME_QUERY } from '@/server/platforms/hashnode/hashnode-api';
import { PlatformError } from '@/server/platforms/publisher';
import { OAuthFlowError, type CredentialsProvider, type GrantedAccount } from '../oauth-provider';

export const hashnodeCredentials: CredentialsProvider = {
  kind: 'credentials',
  label: 'Hashnode',
  choose: true,
  fields: [
    {
      name: 'token',
      label: 'Personal access token',
      type: 'password',
      placeholder: 'Your Hashnode personal access token',
      help: 'In Hashnode, open Settings → Developer and generate a token for Herald. When your account has several blogs, you choose one next.',
    },
  ],
  available: () => true,
  needsDeploymentSetup: false,
  instructions: async () =>
    'Herald publishes to your Hashnode blog with a personal access token. Hashnode lets only blogs on its Pro plan publish through its API. You can revoke the token in Hashnode’s developer settings at any time.',

  async connect(fetch, values): Promise<GrantedAccount[]> {
    const token = values.token?.trim() ?? '';
    if (!token) throw new OAuthFlowError('Enter your Hashnode personal access token.');
    let me;
    try {
      me = jsonAt(await hashnodeClient({ fetch }, token).graphql(ME_QUERY), 'me');
    } catch (error) {
      if (error instanceof PlatformError) throw new OAuthFlowError(`Hashnode did not accept the token (${error.message}). Check it, or generate a new one.`);
      throw new OAuthFlowError('We could not reach Hashnode just now. Try again in a moment.');
    }
    const username = jsonString(me, 'username');
    if (!jsonString(me, 'id') || !username) throw new OAuthFlowError('Hashnode did not accept the token. Check it, or generate a new one.');
    const edges = jsonAt(me, 'publications', 'edges');
    const publications = (Array.isArray(edges) ? edges : []).flatMap((edge) => {
      const id = jsonString(edge, 'node', 'id');
      return id ? [{ id, title: jsonString(edge, 'node', 'title') || id, url: jsonString(edge, 'node', 'url') ?? null }] : [];
    });
    if (!publications.length)
      throw new OAuthFlowError(`The Hashnode account @${username} has no blog to publish to. Create one in Hashnode, then connect again.`);
    return publications.map((publication) => ({
      externalId: publication.id,
      accountName: hostOf(publication.url) ?? `@${username}`,
      displayName: publication.title,
      avatarUrl: jsonString(me, 'profilePicture') ?? null,
      accessToken: token,
      refreshToken: null,
      expiresAt: null,
      scopes: null,
      platformData: { publicationId: publication.id, username, ...(publication.url ? { publicationUrl: publication.url } : {}) },
    }));
  },
};

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
