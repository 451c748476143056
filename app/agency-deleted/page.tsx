// Where an owner lands after deleting their agency (Settings → Leave Herald): a page of its
// own, outside the staff app, loaded afresh so it carries its own styles. It says what was
// closed, when the rest is purged, and what the owner's email can do now: sign up again at
// once (the deletion released it, server/agencies/released-accounts.ts), or, for an owner
// who still works for another agency, sign in as before.
import type { Metadata } from 'next';
import Link from 'next/link';
import { PURGE_AFTER_DAYS } from '@/server/agencies/leave';
import { signUpOpen } from '@/server/agencies/sign-up';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Agency deleted · Herald' };

/** The purge date the deletion answered, read from the address; the documented delay otherwise. */
function purgeDay(value: string | undefined): string | null {
  const date = value ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

export default async function AgencyDeletedPage({ searchParams }: { searchParams: Promise<{ purge?: string; account?: string }> }) {
  const { purge, account } = await searchParams;
  const day = purgeDay(purge);
  const kept = account === 'kept';
  const signUp = await signUpOpen(undefined);
  return (
    <main className="auth-page">
      <section className="card auth-card signup-card" aria-labelledby="deleted-title" data-testid="agency-deleted">
        <h1 id="deleted-title" style={{ marginTop: 0 }}>
          Your agency is deleted
        </h1>
        <p>
          It and its client workspaces are closed: API keys and assistants stopped working, client links closed, the tokens of connected accounts were erased
          and scheduled posts were cancelled.
        </p>
        <p data-testid="purge-date">
          {day
            ? `Everything else (posts, media records, members) is removed for good on ${day} (UTC), ${PURGE_AFTER_DAYS} days after the deletion. Until then, whoever runs this Herald can still bring it back if you ask.`
            : `Everything else (posts, media records, members) is removed for good ${PURGE_AFTER_DAYS} days after the deletion. Until then, whoever runs this Herald can still bring it back if you ask.`}
        </p>
        {kept ? (
          <>
            <p data-testid="email-next">Your account stays, for the other agencies you work for: sign in as before.</p>
            <p>
              <Link className="button" href="/">
                Open Herald
              </Link>
            </p>
          </>
        ) : (
          <>
            <p data-testid="email-next">
              You were signed out. Your email is free again:{' '}
              {signUp.open
                ? 'you can use it to sign up for a new agency now, which starts empty.'
                : signUp.reason === 'invite'
                  ? 'you can sign up with it again from an invitation link, or accept an invitation to join a team.'
                  : 'it can be invited to join another team here, or used on another Herald.'}
            </p>
            {signUp.open ? (
              <p>
                <Link className="button" href="/signup">
                  Sign up again
                </Link>
              </p>
            ) : null}
          </>
        )}
      </section>
    </main>
  );
}
