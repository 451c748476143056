// A team invitation (no login): who invites, to what, with which role, and the one way to
// accept that fits — set a password (no Herald account with this email yet) or sign in with
// the invited email and accept. Links that are used, withdrawn or expired say so plainly.
import type { Metadata } from 'next';
import Link from 'next/link';
import { currentStaffUserId } from '@/server/auth/staff-auth';
import { db } from '@/server/db/client';
import { viewInvitation } from '@/server/workspaces/member-invitations';
import { AcceptAsMember, AcceptWithPassword } from './accept-forms';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Join a team · Herald' };

const ROLE_WORDS = {
  owner: 'an owner: everything, including the team',
  admin: 'an admin: everything but the team',
  member: 'a member: compose, schedule and publish',
  reviewer: 'a reviewer: read and approve posts',
} as const;

const CLOSED = {
  invalid: ['This invitation link is not valid', 'Check that the whole link was copied, or ask for a new invitation.'],
  used: ['This invitation was accepted already', 'If that was you, sign in.'],
  revoked: ['This invitation was withdrawn', 'Ask the agency for a new one.'],
  expired: ['This invitation has expired', 'Ask the agency for a new one.'],
} as const;

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewInvitation(token);
  if (view.state !== 'live') {
    const [title, next] = CLOSED[view.state];
    return (
      <main className="auth-page">
        <section className="card auth-card" aria-labelledby="invite-title">
          <h1 id="invite-title" style={{ marginTop: 0 }}>
            {title}
          </h1>
          <p>
            {view.state === 'expired' ? `${view.agencyName}’s invitation is no longer valid. ` : null}
            {next}
          </p>
          <p>
            <Link href="/signin">Sign in</Link>
          </p>
        </section>
      </main>
    );
  }
  const userId = await currentStaffUserId();
  const signedInAs = userId ? ((await db.user.findUnique({ where: { id: userId }, select: { email: true } }))?.email ?? null) : null;
  return (
    <main className="auth-page">
      <section className="card auth-card signup-card" aria-labelledby="invite-title">
        <h1 id="invite-title" style={{ marginTop: 0 }}>
          Join {view.agencyName} on Herald
        </h1>
        <p>
          You are invited as {ROLE_WORDS[view.role]}. The invitation is for <strong>{view.email}</strong>.
        </p>
        {!view.hasAccount ? (
          <>
            <p className="muted">Choose your name and a password: this creates your Herald account for {view.email}.</p>
            <AcceptWithPassword token={token} />
          </>
        ) : signedInAs === view.email ? (
          <AcceptAsMember token={token} agencyName={view.agencyName} />
        ) : (
          <>
            <p className="muted">
              {signedInAs
                ? `You are signed in as ${signedInAs}. Sign out, then sign in as ${view.email} to accept.`
                : `${view.email} has a Herald account already: sign in with it to accept.`}
            </p>
            {signedInAs ? null : (
              <p>
                <Link className="button" href={`/signin?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`}>
                  Sign in to accept
                </Link>
              </p>
            )}
          </>
        )}
      </section>
    </main>
  );
}
