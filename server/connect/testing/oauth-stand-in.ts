// A local HTTPS stand-in for LinkedIn's and Meta's OAuth endpoints, with their documented
// request and response shapes, on 127.0.0.1 with a throwaway self-signed certificate:
//   LinkedIn  GET  /oauth/v2/authorization   → 302 redirect_uri?code&state | ?error=user_cancelled_authorize
//             POST /oauth/v2/accessToken      form grant_type, code, redirect_uri, client_id, client_secret
//             GET  /v2/userinfo               Bearer; OpenID Connect claims
//   Meta      GET  /v25.0/dialog/oauth        → 302 redirect_uri?code&state#_=_ | ?error=access_denied&error_reason=user_denied
//             GET  /v25.0/oauth/access_token  code exchange (with PKCE code_verifier) or grant_type=fb_exchange_token
//             GET  /v25.0/me/permissions, /v25.0/me/accounts
// A code works once; the consent "page" answers at once as the test decides (grant or deny).
import { createHash, randomBytes } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSelfSignedCert } from '@/server/testing/self-signed-cert';

export interface StandIn {
  origin: string;
  cert: string;
  certPath: string;
  /** What the consent page does next: grant (default) or deny. */
  consent: 'grant' | 'deny';
  /** Pages the Meta user manages. */
  pages: { id: string; name: string; instagram?: { id: string; username: string; name: string } }[];
  /** The LinkedIn member who signs in. */
  member: { sub: string; name: string; email: string };
  /** Requests seen, by path. */
  requests: { method: string; path: string; query: URLSearchParams; form: URLSearchParams; authorization?: string }[];
  close(): Promise<void>;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  used: boolean;
}

export const STAND_IN_APPS = {
  linkedin: { clientId: 'li-client-id', clientSecret: 'li-client-secret' },
  meta: { clientId: '1234567890', clientSecret: 'meta-app-secret' },
};

export async function startOAuthStandIn(): Promise<StandIn> {
  const tls = createSelfSignedCert('oauth-stand-in', ['IP:127.0.0.1', 'DNS:localhost']);
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, string>(); // access token → kind
  const state: StandIn = {
    origin: '',
    cert: tls.cert,
    certPath: tls.certPath,
    consent: 'grant',
    pages: [],
    member: { sub: 'Jq8yT3kLmN', name: 'Dana Client', email: 'dana@client.test' },
    requests: [],
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      tls.remove();
    },
  };

  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const redirect = (res: import('node:http').ServerResponse, location: string) => {
    res.writeHead(302, { location });
    res.end();
  };
  const bearer = (auth: string | undefined) => (auth?.startsWith('Bearer ') ? auth.slice(7) : undefined);

  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      const q = url.searchParams;
      const form = new URLSearchParams(req.headers['content-type']?.includes('x-www-form-urlencoded') ? body : '');
      state.requests.push({ method: req.method ?? 'GET', path: url.pathname, query: q, form, authorization: req.headers.authorization });
      const route = `${req.method} ${url.pathname}`;

      // ── LinkedIn ──
      if (route === 'GET /oauth/v2/authorization') {
        const target = new URL(q.get('redirect_uri')!);
        target.searchParams.set('state', q.get('state')!);
        if (state.consent === 'deny') {
          target.searchParams.set('error', 'user_cancelled_authorize');
          target.searchParams.set('error_description', 'The user cancelled the authorization');
        } else {
          const code = `AQ${randomBytes(12).toString('hex')}`;
          codes.set(code, { clientId: q.get('client_id')!, redirectUri: q.get('redirect_uri')!, challenge: null, used: false });
          target.searchParams.set('code', code);
        }
        return redirect(res, target.toString());
      }
      if (route === 'POST /oauth/v2/accessToken') {
        const issued = codes.get(form.get('code') ?? '');
        if (form.get('client_id') !== STAND_IN_APPS.linkedin.clientId || form.get('client_secret') !== STAND_IN_APPS.linkedin.clientSecret) {
          return json(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
        }
        if (form.get('grant_type') !== 'authorization_code' || !issued || issued.used || issued.redirectUri !== form.get('redirect_uri')) {
          return json(res, 400, {
            error: 'invalid_request',
            error_description:
              'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired.',
          });
        }
        issued.used = true;
        const access = `AQV${randomBytes(16).toString('hex')}`;
        tokens.set(access, 'linkedin');
        return json(res, 200, {
          access_token: access,
          expires_in: 5_184_000,
          scope: 'email,openid,profile,w_member_social',
          token_type: 'Bearer',
          id_token: 'eyJ.stand.in',
        });
      }
      if (route === 'GET /v2/userinfo') {
        if (tokens.get(bearer(req.headers.authorization) ?? '') !== 'linkedin')
          return json(res, 401, { serviceErrorCode: 65600, message: 'Invalid access token', status: 401 });
        return json(res, 200, {
          sub: state.member.sub,
          email_verified: true,
          name: state.member.name,
          locale: { country: 'US', language: 'en' },
          given_name: state.member.name.split(' ')[0],
          family_name: state.member.name.split(' ')[1],
          email: state.member.email,
          picture: 'https://media.licdn.test/dana.jpg',
        });
      }

      // ── Meta ──
      if (route === 'GET /v25.0/dialog/oauth') {
        const target = new URL(q.get('redirect_uri')!);
        target.searchParams.set('state', q.get('state')!);
        if (state.consent === 'deny') {
          target.searchParams.set('error', 'access_denied');
          target.searchParams.set('error_code', '200');
          target.searchParams.set('error_description', 'Permissions error');
          target.searchParams.set('error_reason', 'user_denied');
        } else {
          const code = `fb-${randomBytes(12).toString('hex')}`;
          codes.set(code, { clientId: q.get('client_id')!, redirectUri: q.get('redirect_uri')!, challenge: q.get('code_challenge'), used: false });
          target.searchParams.set('code', code);
        }
        return redirect(res, `${target.toString()}#_=_`);
      }
      if (route === 'GET /v25.0/oauth/access_token') {
        const oauthError = (message: string, subcode?: number) =>
          json(res, 400, { error: { message, type: 'OAuthException', code: 100, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: 'AbCdEf' } });
        if (q.get('client_id') !== STAND_IN_APPS.meta.clientId || q.get('client_secret') !== STAND_IN_APPS.meta.clientSecret) {
          return oauthError('Error validating client secret.');
        }
        if (q.get('grant_type') === 'fb_exchange_token') {
          if (tokens.get(q.get('fb_exchange_token') ?? '') !== 'meta-short') return oauthError('Invalid OAuth access token.');
          const long = `EAAL${randomBytes(16).toString('hex')}`;
          tokens.set(long, 'meta-long');
          return json(res, 200, { access_token: long, token_type: 'bearer', expires_in: 5_183_944 });
        }
        const issued = codes.get(q.get('code') ?? '');
        if (!issued) return oauthError('Invalid verification code format.');
        if (issued.used) return oauthError('This authorization code has been used.', 36009);
        if (issued.redirectUri !== q.get('redirect_uri'))
          return oauthError(
            'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
          );
        const verifier = q.get('code_verifier');
        if (issued.challenge && (!verifier || createHash('sha256').update(verifier).digest('base64url') !== issued.challenge)) {
          return oauthError('Invalid code verifier.');
        }
        issued.used = true;
        const short = `EAAS${randomBytes(16).toString('hex')}`;
        tokens.set(short, 'meta-short');
        return json(res, 200, { access_token: short, token_type: 'bearer', expires_in: 5_183_944 });
      }
      if (route === 'GET /v25.0/me/permissions' || route === 'GET /v25.0/me/accounts') {
        if (tokens.get(q.get('access_token') ?? '') !== 'meta-long') {
          return json(res, 400, {
            error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: 'x' },
          });
        }
        if (url.pathname.endsWith('/permissions')) {
          return json(res, 200, {
            data: [
              'pages_show_list',
              'pages_read_engagement',
              'pages_manage_posts',
              'pages_read_user_content',
              'pages_manage_engagement',
              'instagram_basic',
              'instagram_content_publish',
              'instagram_manage_comments',
            ].map((permission) => ({
              permission,
              status: 'granted',
            })),
          });
        }
        return json(res, 200, {
          data: state.pages.map((p) => ({
            id: p.id,
            name: p.name,
            access_token: `page-token-${p.id}`,
            category: 'Brand',
            tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
            picture: { data: { height: 50, is_silhouette: false, url: `https://scontent.test/${p.id}.jpg`, width: 50 } },
            ...(p.instagram ? { instagram_business_account: { ...p.instagram, profile_picture_url: `https://scontent.test/ig-${p.instagram.id}.jpg` } } : {}),
          })),
          paging: { cursors: { before: 'QVFI', after: 'QVFJ' } },
        });
      }
      json(res, 404, { error: 'not found', route });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
