'use server';
// The set-up of a second factor, from the page a member is sent to when their agency requires
// one (or from Security): server/auth/two-factor.ts decides.
import { redirect } from 'next/navigation';
import { currentSessionToken, currentStaffUserId } from '@/server/auth/staff-auth';
import { confirmEnrolment, pendingEnrolment, startEnrolment } from '@/server/auth/two-factor';
import { isAppError } from '@/server/errors/app-error';

export type EnrolState = { stage: 'start' } | { stage: 'scan'; secret: string; uri: string; error?: string } | { stage: 'done'; recoveryCodes: string[] };

const safeNext = (value: FormDataEntryValue | null) => (typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : '/security');

/** A new key; the page shows it (read back from the enrolment under way). */
export async function startAction(form: FormData): Promise<void> {
  const userId = await currentStaffUserId();
  if (!userId) redirect('/signin');
  await startEnrolment(userId);
  redirect(`/signin/two-factor?next=${encodeURIComponent(safeNext(form.get('next')))}`);
}

export async function confirmAction(state: EnrolState, form: FormData): Promise<EnrolState> {
  const userId = await currentStaffUserId();
  if (!userId) redirect('/signin');
  try {
    const { recoveryCodes } = await confirmEnrolment(userId, String(form.get('code') ?? ''), await currentSessionToken());
    return { stage: 'done', recoveryCodes };
  } catch (err) {
    if (!isAppError(err)) throw err;
    const pending = await pendingEnrolment(userId);
    return pending ? { stage: 'scan', ...pending, error: err.message } : { stage: 'start' };
  }
}
