// The link in the verification email: confirms the address once, then leads into the app.
// Opened again (a second click, a mail client's preview), it says the address is confirmed
// already; a link that does not work says how to get one that does, from a place that exists.
import type { Metadata } from 'next';
import Link from 'next/link';
import { VERIFY_LINK_HOURS, verifyEmail, type VerifyOutcome } from '@/server/agencies/sign-up';
import { currentStaffUserId } from '@/server/auth/staff-auth';
import { db } from '@/server/db/client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Confirm your email · Herald', referrer: 'no-referrer' };

/** A link that does not work for a member whose address is confirmed anyway says so. */
async function signedInAndConfirmed(): Promise<string | null> {
  const userId = await currentStaffUserId();
  if (!userId) return null;
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, emailVerified: true } });
  return user?.emailVerified ? user.email : null;
}

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  let outcome: VerifyOutcome = token ? await verifyEmail(token) : { state: 'invalid' };
  if (outcome.state === 'invalid') {
    const email = await signedInAndConfirmed();
    if (email) outcome = { state: 'already', email };
  }
  const title = { confirmed: 'Email confirmed', already: 'Email already confirmed', invalid: 'This link does not work' }[outcome.state];
  return (
    <main className="auth-page">
      <section className="card auth-card signup-card" aria-labelledby="verify-title">
        <h1 id="verify-title" style={{ marginTop: 0 }}>
          {title}
        </h1>
        <p data-testid="verify-result" data-state={outcome.state}>
          {outcome.state === 'confirmed'
            ? `${outcome.email} is confirmed. Everything in Herald is open to you now: API keys, clients, webhooks and assistants.`
            : outcome.state === 'already'
              ? `${outcome.email} was confirmed already: there is nothing more to do. API keys, clients, webhooks and assistants are open to you.`
              : `It has expired (links work for ${VERIFY_LINK_HOURS} hours), a newer link replaced it, or it was copied incompletely. If your email is not confirmed yet, sign in: the dashboard shows a button to send a new link.`}
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
