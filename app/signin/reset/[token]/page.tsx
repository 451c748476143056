// The link in a reset email (no login): a new password, with the sign-up's rules and field,
// while the link is live; otherwise why it does not work, and a way to ask for a new one.
import type { Metadata } from 'next';
import Link from 'next/link';
import { RESET_LINK_MINUTES, viewPasswordReset, type ResetLinkView } from '@/server/auth/password-reset';
import { ResetForm } from './reset-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Choose a new password · Herald' };

const CLOSED: Record<Exclude<ResetLinkView['state'], 'live'>, [string, string]> = {
  invalid: ['This reset link does not work', 'It may have been copied incompletely. Ask for a new one.'],
  used: ['This reset link was used already', 'A new password was set with it. If you need to change it again, ask for a new link.'],
  replaced: ['A newer link replaced this one', 'Use the link in the newest email, or ask for a new one.'],
  expired: ['This reset link has expired', `Links work for ${RESET_LINK_MINUTES} minutes. Ask for a new one.`],
};

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewPasswordReset(token);
  if (view.state !== 'live') {
    const [title, next] = CLOSED[view.state];
    return (
      <main className="auth-page">
        <section className="card auth-card signup-card" aria-labelledby="reset-title" data-testid="reset-closed" data-state={view.state}>
          <h1 id="reset-title" style={{ marginTop: 0 }}>
            {title}
          </h1>
          <p>{next}</p>
          <p>
            <Link className="button" href="/signin/forgot">
              Ask for a new link
            </Link>
          </p>
          <p className="auth-back">
            <Link href="/signin">Back to sign in</Link>
          </p>
        </section>
      </main>
    );
  }
  return (
    <main className="auth-page">
      <section className="card auth-card signup-card" aria-labelledby="reset-title">
        <h1 id="reset-title" style={{ marginTop: 0 }}>
          Choose a new password
        </h1>
        <p>
          For <strong>{view.email}</strong>. Setting it signs out every session of your account; then you sign in with the new password.
        </p>
        <ResetForm token={token} email={view.email} />
        <p className="auth-back">
          <Link href="/signin">Back to sign in</Link>
        </p>
      </section>
    </main>
  );
}
