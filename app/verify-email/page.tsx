// The link in the verification email: confirms the address once, then leads into the app.
import type { Metadata } from 'next';
import Link from 'next/link';
import { verifyEmail } from '@/server/agencies/sign-up';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Confirm your email · Herald', referrer: 'no-referrer' };

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  const email = token ? await verifyEmail(token) : null;
  return (
    <main className="auth-page">
      <section className="card auth-card signup-card" aria-labelledby="verify-title">
        <h1 id="verify-title" style={{ marginTop: 0 }}>
          {email ? 'Email confirmed' : 'This link does not work'}
        </h1>
        <p data-testid="verify-result">
          {email
            ? `${email} is confirmed. Everything in Herald is open to you now: API keys, clients, webhooks and assistants.`
            : 'It was used already, has expired (links work for 48 hours), or was copied incompletely. Sign in and send a new one from the dashboard.'}
        </p>
        <p>
          <Link className="button" href="/">
            Open Herald
          </Link>
        </p>
      </section>
    </main>
  );
}
