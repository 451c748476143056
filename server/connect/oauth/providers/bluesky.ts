// Bluesky: the client types their handle (or email) and an app password, and optionally their
// server (any PDS; bsky.social by default, BLUESKY_SERVICE_URL). Herald signs in once with
// com.atproto.server.createSession (https://docs.bsky.app/docs/api/com-atproto-server-create-session)
// and keeps only the session: the access JWT and the refresh JWT as the (sealed) tokens, the
// access JWT's expiry, and did, handle and PDS in platformData. The app password itself is
// never stored. The PDS is the one the session's DID document names (#atproto_pds service), as
// an entryway like bsky.social hands each account to its own PDS; the server typed is the
// fallback. The profile (app.bsky.actor.getProfile, through the PDS) gives the display name
// and avatar, best effort.
import { baseUrlFromEnv, callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery, type Fetcher } from '@/server/platforms/http';
import { BLUESKY_DEFAULT_SERVICE_URL, jwtExpiry } from '@/server/platforms/bluesky/bluesky-api';
import { instanceOrigin } from '@/server/platforms/mastodon/mastodon-api';
import { OAuthFlowError, type CredentialsProvider, type GrantedAccount } from '../oauth-provider';

/** The #atproto_pds service endpoint of a DID document, or null. */
function pdsOf(didDoc: unknown): string | null {
  const services = jsonAt(didDoc, 'service');
  if (!Array.isArray(services)) return null;
  const pds = services.find((s) => jsonString(s, 'id')?.endsWith('#atproto_pds') && jsonString(s, 'type') === 'AtprotoPersonalDataServer');
  const endpoint = jsonString(pds, 'serviceEndpoint');
  return endpoint?.startsWith('https://') ? endpoint.replace(/\/+$/, '') : null;
}

async function profile(fetch: Fetcher, pds: string, did: string, accessJwt: string): Promise<{ displayName: string | null; avatar: string | null }> {
  try {
    const response = await callApi(fetch, withQuery(`${pds}/xrpc/app.bsky.actor.getProfile`, { actor: did }), {
      headers: { authorization: `Bearer ${accessJwt}` },
    });
    if (!isSuccess(response)) return { displayName: null, avatar: null };
    return { displayName: jsonString(response.json, 'displayName') || null, avatar: jsonString(response.json, 'avatar') ?? null };
  } catch {
    return { displayName: null, avatar: null };
  }
}

export const blueskyCredentials: CredentialsProvider = {
  kind: 'credentials',
  label: 'Bluesky',
  choose: false,
  fields: [
    { name: 'identifier', label: 'Handle or email', type: 'text', placeholder: 'you.bsky.social' },
    {
      name: 'password',
      label: 'App password',
      type: 'password',
      placeholder: 'xxxx-xxxx-xxxx-xxxx',
      help: 'Create one in Bluesky under Settings → Privacy and security → App passwords. It is used once to sign in and never stored.',
    },
    { name: 'server', label: 'Server', type: 'url', placeholder: 'https://bsky.social', help: 'Only if your account is on another server.', optional: true },
  ],
  available: () => true,
  needsDeploymentSetup: false,
  instructions: async () => 'Sign in with an app password, not your main Bluesky password.',

  async connect(fetch, values): Promise<GrantedAccount[]> {
    const identifier = values.identifier?.trim().replace(/^@/, '') ?? '';
    const password = values.password?.trim() ?? '';
    if (!identifier || !password) throw new OAuthFlowError('Enter your Bluesky handle and an app password.');
    const server = values.server?.trim() ? instanceOrigin(values.server) : baseUrlFromEnv('BLUESKY_SERVICE_URL', BLUESKY_DEFAULT_SERVICE_URL);
    if (!server) throw new OAuthFlowError('Enter your server’s address, for example https://bsky.social.');

    let session;
    try {
      session = await callApi(fetch, `${server}/xrpc/com.atproto.server.createSession`, { json: { identifier, password } });
    } catch {
      throw new OAuthFlowError(`We could not reach ${new URL(server).host}. Check the server’s address and try again.`);
    }
    const accessJwt = jsonString(session.json, 'accessJwt');
    const refreshJwt = jsonString(session.json, 'refreshJwt');
    const did = jsonString(session.json, 'did');
    if (!isSuccess(session) || !accessJwt || !refreshJwt || !did) {
      const why = firstJsonString(session.json, ['message', 'error']) ?? `HTTP ${session.status}`;
      throw new OAuthFlowError(`Bluesky did not accept the sign-in (${why}). Check the handle and app password.`);
    }
    const handle = jsonString(session.json, 'handle') ?? identifier;
    const pds = pdsOf(jsonAt(session.json, 'didDoc')) ?? server;
    const { displayName, avatar } = await profile(fetch, pds, did, accessJwt);
    return [
      {
        externalId: did,
        accountName: `@${handle}`,
        displayName: displayName ?? handle,
        avatarUrl: avatar,
        accessToken: accessJwt,
        refreshToken: refreshJwt,
        expiresAt: jwtExpiry(accessJwt),
        scopes: null,
        platformData: { did, handle, pds },
      },
    ];
  },
};
