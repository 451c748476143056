// Sign-up: a new agency and its owner. On an empty instance it is the first run (whatever the
// mode); afterwards SIGNUP_MODE decides, and a closed Herald says so plainly.
import type { Metadata } from 'next';
import Link from 'next/link';
import { onlyDeletedAgencies, signUpOpen } from '@/server/agencies/sign-up';
import { SignUpForm } from './sign-up-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Create an agency · Herald' };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ invite?: string }> }) {
  const { invite } = await searchParams;
  const gate = await signUpOpen(invite);
  if (!gate.open) {
    return (
      <main className="auth-page">
        <section className="card auth-card signup-card" aria-labelledby="closed-title">
          <h1 id="closed-title" style={{ marginTop: 0 }}>
            {gate.reason === 'invite' ? 'Sign-up is by invitation' : 'This Herald takes no new agencies'}
          </h1>
          <p>
            {gate.reason === 'invite'
              ? invite
                ? 'This invitation link was used already or has expired. Ask whoever runs this Herald for a new one.'
                : 'This Herald is invite-only. Open the invitation link you were sent, or ask whoever runs it for one.'
              : 'It serves one agency. To start your own, run Herald yourself, or ask its owner to add you to their team.'}
          </p>
          <p>
            Already have an account? <Link href="/signin">Sign in</Link>
          </p>
        </section>
      </main>
    );
  }
  // No agency, but not new: its agency was deleted. Nobody can sign in, and any email, the
  // deleted agency's included, can start again here.
  const afterDeletion = gate.firstRun && (await onlyDeletedAgencies());
  return (
    <main className="auth-page">
      <section className="card auth-card signup-card" aria-labelledby="signup-title">
        <h1 id="signup-title" style={{ marginTop: 0 }}>
          {gate.firstRun && !afterDeletion ? 'Welcome to Herald' : 'Create your agency'}
        </h1>
        <p className="muted" data-testid="signup-intro">
          {afterDeletion
            ? 'This Herald has no agency at the moment: the last one was deleted, so there is no account to sign in to. Create the agency it serves and your owner account (an email used before works again); you will confirm it from a link we send.'
            : gate.firstRun
              ? 'This Herald is new. Create the agency it serves and your owner account: you will confirm your email from a link we send.'
              : 'Your agency and your owner account. You will confirm your email from a link we send.'}
        </p>
        <SignUpForm invite={invite ?? null} />
        {gate.firstRun ? null : (
          <p>
            Already have an account? <Link href="/signin">Sign in</Link>
          </p>
        )}
      </section>
    </main>
  );
}
