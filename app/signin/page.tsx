import { AuthError, CredentialsSignin } from 'next-auth';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import Link from 'next/link';
import { signUpState } from '@/server/agencies/sign-up';
import { retryInWords } from '@/server/auth/sign-in';
import { signInAddressMismatch } from '@/server/auth/sign-in-address';
import { CHALLENGE_COOKIE, signIn } from '@/server/auth/staff-auth';

export const dynamic = 'force-dynamic';

/** Where to go after signing in: a path of this app only, never another site. */
function safeCallback(value: string | undefined): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

/**
 * What a refused sign-in says, from the code the sign-in gave (server/auth/staff-auth.ts): one
 * sentence for a wrong email, password or code alike, and when to retry once throttled.
 */
function refusalText(code: string | undefined, step: 'password' | 'code'): string {
  const m = /^(wait|locked)-(\d+)$/.exec(code ?? '');
  if (m) {
    const retryAt = new Date(Number(m[2]) * 1000);
    if (retryAt.getTime() > Date.now()) {
      return m[1] === 'locked'
        ? `Too many failed sign-ins: signing in is locked for now. Try again ${retryInWords(retryAt)}. The account's owner has been told by email.`
        : `Too many failed sign-ins: wait a little before the next try. Try again ${retryInWords(retryAt)}.`;
    }
  }
  if (code === 'expired') return 'That sign-in took too long: enter your email and password again.';
  return step === 'code'
    ? 'That code does not match. Type the six digits your app shows now, or one of your recovery codes.'
    : 'That email and password do not match.';
}

const backTo = (redirectTo: string, params: Record<string, string>) => `/signin?${new URLSearchParams({ ...params, callbackUrl: redirectTo }).toString()}`;

/** One step of the sign-in through Auth.js (server/auth/staff-auth.ts), then where it leads. */
async function attempt(fields: Record<string, FormDataEntryValue | null>, onStep: 'password' | 'code', redirectTo: string): Promise<never> {
  try {
    // No redirect from Auth.js: it would send the browser to the configured address, where
    // the cookie just set (for the address opened) does not exist. A path stays on this one.
    await signIn('credentials', { ...fields, redirect: false });
  } catch (err) {
    // Only a refused sign-in is an AuthError; its code says why.
    if (!(err instanceof AuthError)) throw err;
    const why = err instanceof CredentialsSignin ? err.code : 'credentials';
    if (why === 'second-factor') redirect(backTo(redirectTo, { step: 'code' }));
    redirect(backTo(redirectTo, { error: '1', code: why, ...(onStep === 'code' ? { step: 'code' } : {}) }));
  }
  redirect(redirectTo);
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string; code?: string; step?: string; callbackUrl?: string; reset?: string }>;
}) {
  const { error, code, step, callbackUrl, reset } = await searchParams;
  const redirectTo = safeCallback(callbackUrl);
  // A Herald with no agency (new, or its only agency deleted) has no account anyone can sign in
  // to, so its sign-up is where to go. Sign-up takes any address then: an account without a
  // live workspace does not hold its email (server/agencies/released-accounts.ts), so the
  // "sign in instead" of an email in use cannot lead back here.
  const signup = await signUpState();
  if (signup.firstRun) redirect('/signup');
  const request = await headers();
  const mismatch = signInAddressMismatch(request.get('host'), request.get('x-forwarded-proto'));
  const codeStep = step === 'code' && (await cookies()).has(CHALLENGE_COOKIE);

  async function passwordAction(form: FormData) {
    'use server';
    await attempt({ email: form.get('email'), password: form.get('password') }, 'password', redirectTo);
  }
  async function codeAction(form: FormData) {
    'use server';
    if (!(await cookies()).has(CHALLENGE_COOKIE)) redirect(backTo(redirectTo, { error: '1', code: 'expired' }));
    await attempt({ code: form.get('code') }, 'code', redirectTo);
  }

  return (
    <main className="auth-page">
      <form action={codeStep ? codeAction : passwordAction} className="card auth-card">
        <h1 style={{ marginTop: 0 }}>{codeStep ? 'Two-factor sign-in' : 'Sign in to Herald'}</h1>
        {mismatch ? (
          <div className="error" role="alert" data-testid="address-mismatch">
            <p style={{ marginTop: 0 }}>
              This Herald is set up to be opened at <a href={`${mismatch.configured}/signin`}>{mismatch.configured}</a>, but this page was opened at{' '}
              {mismatch.opened}. Signing in here will not keep you signed in.
            </p>
            <p style={{ marginBottom: 0 }}>
              Open <a href={`${mismatch.configured}/signin`}>{mismatch.configured}/signin</a>, or, if this address is the right one, set{' '}
              <code>HERALD_BASE_URL</code> (and <code>AUTH_URL</code>) to {mismatch.opened} and restart.
            </p>
          </div>
        ) : null}
        {reset === 'done' && !error && !codeStep ? (
          <p className="notice" role="status" data-testid="reset-done">
            Your password is changed, and every session of your account was signed out. Sign in with the new password.
          </p>
        ) : null}
        {error ? (
          <p className="error" role="alert" data-testid="sign-in-refused">
            {refusalText(code, codeStep ? 'code' : 'password')}
          </p>
        ) : null}
        {codeStep ? (
          <>
            <p>Open your authenticator app and type the code it shows for Herald. Lost your phone? Type one of your recovery codes instead.</p>
            <label className="field">
              Code
              <input name="code" inputMode="text" autoComplete="one-time-code" required autoFocus maxLength={40} />
            </label>
            <button className="button" type="submit" style={{ width: '100%' }}>
              Verify
            </button>
            <p>
              <Link href={backTo(redirectTo, {})}>Start again</Link>
            </p>
          </>
        ) : (
          <>
            <label className="field">
              Email
              <input name="email" type="email" autoComplete="username" required />
            </label>
            <label className="field">
              Password
              <input name="password" type="password" autoComplete="current-password" required />
            </label>
            <button className="button" type="submit" style={{ width: '100%' }}>
              Sign in
            </button>
            <p>
              <Link href="/signin/forgot">Forgot your password?</Link>
            </p>
            {signup.mode === 'open' ? (
              <p>
                New to Herald? <Link href="/signup">Create an agency</Link>
              </p>
            ) : null}
          </>
        )}
      </form>
    </main>
  );
}
