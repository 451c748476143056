'use server';
// The set-up of a second factor, from the page a member is sent to when their agency requires
// one (or from Security): server/auth/two-factor.ts decides. One action, the page's state
// machine: start (a new key to show), then confirm (a code from the app; the recovery codes).
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { withRequestOrigin } from '@/server/observability/request-origin';
import { currentSessionToken, currentStaffUserId } from '@/server/auth/staff-auth';
import { confirmEnrolment, pendingEnrolment, startEnrolment } from '@/server/auth/two-factor';
import { isAppError } from '@/server/errors/app-error';
import { scanState } from './scan-state';

export type EnrolState =
  { stage: 'start' } | { stage: 'scan'; secret: string; uri: string; qr: string; error?: string } | { stage: 'done'; recoveryCodes: string[] };

export async function enrolAction(state: EnrolState, form: FormData): Promise<EnrolState> {
  // The security event of turning it on records where from, as the app's procedures do.
  return withRequestOrigin(await headers(), () => enrol(state, form));
}

async function enrol(_state: EnrolState, form: FormData): Promise<EnrolState> {
  const userId = await currentStaffUserId();
  if (!userId) redirect('/signin');
  if (form.get('intent') === 'start') return scanState(await startEnrolment(userId));
  try {
    const { recoveryCodes } = await confirmEnrolment(userId, String(form.get('code') ?? ''), await currentSessionToken());
    return { stage: 'done', recoveryCodes };
  } catch (err) {
    if (!isAppError(err)) throw err;
    const pending = await pendingEnrolment(userId);
    return pending ? { ...(await scanState(pending)), error: err.message } : { stage: 'start' };
  }
}
