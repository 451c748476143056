// Farcaster through Neynar's managed signers
// (https://docs.neynar.com/docs/write-to-farcaster-with-neynar-managed-signers): Herald asks
// Neynar for a signer, signs a signed key request for it with the custody key of the app's own
// Farcaster account, and registers it; the client approves the key in their Farcaster app
// through the approval link; Herald then finds the account's fid on the signer and reads the
// account. The signer_uuid is the connection's token, sealed like every token, and works only
// with this deployment's Neynar API key.
//   POST /v2/farcaster/signer → { signer_uuid, public_key, status: generated }
//     (https://docs.neynar.com/reference/create-signer)
//   POST /v2/farcaster/signer/signed_key { signer_uuid, app_fid, deadline, signature }
//     → { signer_approval_url, status: pending_approval } (https://docs.neynar.com/reference/register-signed-key)
//   GET /v2/farcaster/signer?signer_uuid= → { status: generated | pending_approval | approved
//     | revoked, fid } (https://docs.neynar.com/reference/lookup-signer)
//   GET /v2/farcaster/user/bulk?fids= → { users: [{ fid, username, display_name, pfp_url }] }
//     (https://docs.neynar.com/reference/fetch-bulk-users)
import { env } from '@/server/config/env';
import { jsonAt, jsonString, type Fetcher } from '@/server/platforms/http';
import { neynarFor, type NeynarOptions } from '@/server/platforms/farcaster/neynar-api';
import { signSignedKeyRequest } from '@/server/platforms/farcaster/signed-key-request';
import { PlatformError } from '@/server/platforms/publisher';
import { OAuthFlowError, type ApprovalProvider, type GrantedAccount } from '../oauth-provider';

/** The app's account as the deployment configures it, or null when something is missing. */
export function farcasterApp(): { fid: number; custodyKey: string } | null {
  const fid = Number(env.farcasterAppFid());
  const custodyKey = env.farcasterAppCustodyPrivateKey();
  if (!env.neynarApiKey() || !Number.isInteger(fid) || fid <= 0 || !custodyKey || !/^(0x)?[0-9a-f]{64}$/i.test(custodyKey)) return null;
  return { fid, custodyKey };
}

/** Neynar's refusal in the page's words, or a plain "could not reach". */
async function asked<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof PlatformError) {
      const status = error.opts.status ?? 0;
      throw new OAuthFlowError(
        status === 429 ? 'Farcaster is busy right now. Please wait a minute and try again.' : `Neynar refused the request: ${error.message}`,
      );
    }
    throw error;
  }
}

interface Pending {
  signerUuid: string;
}

export function farcasterApproval(options: NeynarOptions = {}): ApprovalProvider {
  const neynar = (fetch: Fetcher) => neynarFor({ ...options, fetch: options.fetch ?? fetch });
  return {
    kind: 'approval',
    label: 'Farcaster',
    choose: false,
    available: () => farcasterApp() !== null,
    instructions: 'Open the link in the Farcaster app (or scan it with your phone) and approve Herald there, then come back to this page.',

    async start(fetch, { expiresAt }) {
      const app = farcasterApp();
      if (!app) throw new OAuthFlowError('Farcaster is not set up on this Herald.');
      const api = neynar(fetch);
      const signer = await asked(() => api.post('/v2/farcaster/signer', {}));
      const signerUuid = jsonString(signer, 'signer_uuid');
      const publicKey = jsonString(signer, 'public_key');
      if (!signerUuid || !publicKey) throw new OAuthFlowError('Neynar did not create a signer. Please try again.');
      // The request is void once the connect session is over: an approval after it would go unused.
      const deadline = Math.floor(expiresAt.getTime() / 1000);
      const signature = signSignedKeyRequest(app.custodyKey, { requestFid: app.fid, key: publicKey, deadline });
      const registered = await asked(() => api.post('/v2/farcaster/signer/signed_key', { signer_uuid: signerUuid, app_fid: app.fid, deadline, signature }));
      const approvalUrl = jsonString(registered, 'signer_approval_url');
      if (!approvalUrl || !/^https:\/\//.test(approvalUrl)) throw new OAuthFlowError('Neynar gave no approval link. Please try again.');
      return { approvalUrl, pending: JSON.stringify({ signerUuid } satisfies Pending) };
    },

    async check(fetch, pending) {
      const { signerUuid } = JSON.parse(pending) as Pending;
      const api = neynar(fetch);
      const signer = await asked(() => api.get('/v2/farcaster/signer', { signer_uuid: signerUuid }));
      const status = jsonString(signer, 'status');
      if (status === 'revoked')
        throw new OAuthFlowError('The request was declined or withdrawn in Farcaster, so nothing was connected. Start again to send a new one.');
      if (status !== 'approved') return { status: 'pending' };
      const fid = Number(jsonString(signer, 'fid'));
      if (!Number.isInteger(fid) || fid <= 0) throw new OAuthFlowError('Farcaster approved the request but Neynar named no account. Please try again.');
      const users = await asked(() => api.get('/v2/farcaster/user/bulk', { fids: fid }));
      const user = jsonAt(users, 'users', 0);
      const username = jsonString(user, 'username') ?? `!${fid}`;
      const account: GrantedAccount = {
        externalId: String(fid),
        accountName: `@${username}`,
        displayName: jsonString(user, 'display_name') || username,
        avatarUrl: jsonString(user, 'pfp_url') ?? null,
        accessToken: signerUuid,
        refreshToken: null,
        expiresAt: null,
        scopes: null,
        platformData: { fid, username },
      };
      return { status: 'approved', accounts: [account] };
    },
  };
}

export const farcasterConnect = farcasterApproval();
