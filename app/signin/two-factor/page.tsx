// Setting up a second factor, outside the staff app's shell: where a member lands when their
// agency requires one and they have none (nothing else opens until it is done), and where
// Security sends them to add one.
import { redirect } from 'next/navigation';
import { currentStaffUserId, signOut } from '@/server/auth/staff-auth';
import { hasTwoFactor, mustEnrolTwoFactor, pendingEnrolment } from '@/server/auth/two-factor';
import { EnrolForm } from './enrol-form';
import type { EnrolState } from './actions';
import { scanState } from './scan-state';

export const dynamic = 'force-dynamic';

const safeNext = (value: string | undefined) => (value && value.startsWith('/') && !value.startsWith('//') ? value : '/security');

async function signOutAction() {
  'use server';
  // A path, not Auth.js's absolute redirect: stay on the address the browser opened.
  await signOut({ redirect: false });
  redirect('/signin');
}

export default async function TwoFactorSetupPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const userId = await currentStaffUserId();
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent('/signin/two-factor')}`);
  const [enabled, required, pending] = await Promise.all([hasTwoFactor(userId), mustEnrolTwoFactor(userId), pendingEnrolment(userId)]);
  const initial: EnrolState = pending ? await scanState(pending) : { stage: 'start' };
  return (
    <main className="auth-page">
      <section className="card auth-card">
        <h1 style={{ marginTop: 0 }}>Two-factor sign-in</h1>
        {enabled ? (
          <>
            <p>Two-factor sign-in is on for your account.</p>
            <a className="button" href={safeNext(next)}>
              Continue
            </a>
          </>
        ) : (
          <>
            {required ? (
              <p className="error" role="alert">
                Your agency requires two-factor sign-in. Set it up to continue: it takes a minute, with an authenticator app on your phone.
              </p>
            ) : (
              <p>After your password, Herald will ask for a code from an app on your phone: a stolen password alone no longer opens your account.</p>
            )}
            <EnrolForm
              initial={initial}
              next={safeNext(next)}
              back={
                // A way back: to where the member came from, or, when nothing else opens until it
                // is set up, out (the member may need their phone first).
                required ? (
                  <form action={signOutAction} className="auth-back">
                    <span className="muted">Not now?</span>{' '}
                    <button type="submit" className="link-button">
                      Sign out
                    </button>
                  </form>
                ) : (
                  <p className="auth-back">
                    <a href={safeNext(next)}>Not now: go back</a>
                  </p>
                )
              }
            />
          </>
        )}
      </section>
    </main>
  );
}
