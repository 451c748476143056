// The consent page an assistant client sends a member to: who is asking, for which
// workspace, with which scopes and which toolsets (the tools it is shown). Approving issues a one-time code to the client
// (server/oauth); the key it becomes is listed with the workspace's keys. A request from an
// unknown client or to an unregistered redirect URI is shown here; its other errors go back
// to the client.
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { currentStaffUserId } from '@/server/auth/staff-auth';
import { SCOPE_DESCRIPTIONS } from '@/server/auth/scopes';
import { DEFAULT_TOOLSETS, TOOLSET_DESCRIPTIONS, TOOLSET_NAMES } from '@/server/shared/toolsets';
import { mustEnrolTwoFactor } from '@/server/auth/two-factor';
import { checkAuthorization, consentWorkspaces, OAuthError, type CheckedAuthorization } from '@/server/oauth/oauth';
import { WORKSPACE_COOKIE } from '@/app/(staff)/_lib/workspace-cookie';

export const dynamic = 'force-dynamic';

type Params = Record<string, string | undefined>;
const FIELDS = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'resource'] as const;

export default async function AuthorizePage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  const userId = await currentStaffUserId();
  const back = `/oauth/authorize?${new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string')).toString()}`;
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent(back)}`);
  // The consent is a sign-in: an agency's two-factor requirement holds here as in the app.
  if (await mustEnrolTwoFactor(userId)) redirect(`/signin/two-factor?next=${encodeURIComponent(back)}`);
  let request: CheckedAuthorization;
  try {
    request = await checkAuthorization(params);
  } catch (err) {
    if (err instanceof OAuthError && err.redirectTo) redirect(err.redirectTo);
    const message = err instanceof OAuthError ? err.description : 'This sign-in request cannot be completed';
    return (
      <main className="auth-page">
        <section className="card auth-card">
          <h1 style={{ marginTop: 0 }}>Cannot connect this assistant</h1>
          <p className="error" role="alert">
            {message}
          </p>
        </section>
      </main>
    );
  }
  const { workspaces, selectedId } = await consentWorkspaces(userId, (await cookies()).get(WORKSPACE_COOKIE)?.value);
  // An app's own scheme (cursor://, com.example.app:) has no host worth naming: the scheme is the app.
  const target = new URL(request.redirectUri);
  const redirectHost = target.host || target.protocol.replace(/:$/, '');
  return (
    <main className="auth-page">
      <form method="post" action="/oauth/authorize/decision" className="card auth-card">
        <h1 style={{ marginTop: 0 }}>Connect {request.client.name} to Herald</h1>
        <p>
          {request.client.name} asks to act for a workspace with the permissions below. It will get an API key of its own (listed as an assistant connection,
          revocable at any time) and return to <strong>{redirectHost}</strong>. Publishing and other actions with an external effect still wait for a
          member&rsquo;s confirmation unless the workspace turned that off.
        </p>
        {FIELDS.map((f) => (params[f] !== undefined ? <input key={f} type="hidden" name={f} value={params[f]} /> : null))}
        {workspaces.length === 0 ? (
          <p className="error" role="alert">
            You are not an owner or admin of any workspace, so you cannot connect an assistant.
          </p>
        ) : (
          <label className="field">
            Workspace
            <select name="workspaceId" defaultValue={selectedId ?? undefined}>
              {workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <fieldset className="field" style={{ border: 0, padding: 0 }}>
          <legend>Permissions</legend>
          {request.scopes.map((scope) => (
            <label key={scope} style={{ display: 'flex', gap: 8, alignItems: 'baseline' }}>
              <input type="checkbox" name="scopes" value={scope} defaultChecked />
              <span>
                <code>{scope}</code> — {SCOPE_DESCRIPTIONS[scope]}
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset className="field" style={{ border: 0, padding: 0 }}>
          <legend>Toolsets</legend>
          <p style={{ margin: '0 0 4px' }}>
            The tools {request.client.name} is shown; fewer leave more of its context for your work. Permissions above still decide what it may do.
          </p>
          <input type="hidden" name="toolsetsShown" value="1" />
          {TOOLSET_NAMES.map((name) => (
            <label key={name} style={{ display: 'flex', gap: 8, alignItems: 'baseline' }}>
              <input type="checkbox" name="toolsets" value={name} defaultChecked={request.toolsets.includes(name)} />
              <span>
                <code>{name}</code>
                {DEFAULT_TOOLSETS.includes(name) ? ' (default)' : ''} — {TOOLSET_DESCRIPTIONS[name]}
              </span>
            </label>
          ))}
        </fieldset>
        <div style={{ display: 'flex', gap: 12 }}>
          <button className="button" type="submit" name="decision" value="approve" disabled={workspaces.length === 0}>
            Allow
          </button>
          <button className="button secondary" type="submit" name="decision" value="deny">
            Deny
          </button>
        </div>
      </form>
    </main>
  );
}
