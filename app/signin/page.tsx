import { AuthError } from 'next-auth';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import Link from 'next/link';
import { signUpState } from '@/server/agencies/sign-up';
import { signInAddressMismatch } from '@/server/auth/sign-in-address';
import { signIn } from '@/server/auth/staff-auth';

export const dynamic = 'force-dynamic';

/** Where to go after signing in: a path of this app only, never another site. */
function safeCallback(value: string | undefined): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string; callbackUrl?: string }> }) {
  const { error, callbackUrl } = await searchParams;
  const redirectTo = safeCallback(callbackUrl);
  // An empty Herald has nobody to sign in: its first run creates the agency and its owner.
  const signup = await signUpState();
  if (signup.firstRun) redirect('/signup');
  const request = await headers();
  const mismatch = signInAddressMismatch(request.get('host'), request.get('x-forwarded-proto'));
  async function signInAction(form: FormData) {
    'use server';
    try {
      // No redirect from Auth.js: it would send the browser to the configured address, where
      // the cookie just set (for the address opened) does not exist. A path stays on this one.
      await signIn('credentials', { email: form.get('email'), password: form.get('password'), redirect: false });
    } catch (err) {
      // Only a refused sign-in is an AuthError.
      if (err instanceof AuthError) redirect(`/signin?error=1&callbackUrl=${encodeURIComponent(redirectTo)}`);
      throw err;
    }
    redirect(redirectTo);
  }
  return (
    <main className="auth-page">
      <form action={signInAction} className="card auth-card">
        <h1 style={{ marginTop: 0 }}>Sign in to Herald</h1>
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
        {error ? (
          <p className="error" role="alert">
            That email and password do not match.
          </p>
        ) : null}
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
        {signup.mode === 'open' ? (
          <p>
            New to Herald? <Link href="/signup">Create an agency</Link>
          </p>
        ) : null}
      </form>
    </main>
  );
}
