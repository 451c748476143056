import { AuthError } from 'next-auth';
import { redirect } from 'next/navigation';
import { signIn } from '@/server/auth/staff-auth';

export const dynamic = 'force-dynamic';

/** Where to go after signing in: a path of this app only, never another site. */
function safeCallback(value: string | undefined): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string; callbackUrl?: string }> }) {
  const { error, callbackUrl } = await searchParams;
  const redirectTo = safeCallback(callbackUrl);
  async function signInAction(form: FormData) {
    'use server';
    try {
      await signIn('credentials', { email: form.get('email'), password: form.get('password'), redirectTo });
    } catch (err) {
      // signIn redirects by throwing; only a refused sign-in is an AuthError.
      if (err instanceof AuthError) redirect(`/signin?error=1&callbackUrl=${encodeURIComponent(redirectTo)}`);
      throw err;
    }
  }
  return (
    <main className="auth-page">
      <form action={signInAction} className="card auth-card">
        <h1 style={{ marginTop: 0 }}>Sign in to Herald</h1>
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
      </form>
    </main>
  );
}
