'use server';
// The reset link's action: the new password through the reset service, then the sign-in page
// (the reset opens no session: a second factor, if on, is asked there as always).
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { ZodError } from 'zod';
import type { FormProblem } from '@/app/_ui/form-state-errors';
import { completePasswordReset } from '@/server/auth/password-reset';
import { AppError } from '@/server/errors/app-error';
import { originOf, withRequestOrigin } from '@/server/observability/request-origin';

export interface ResetState {
  error?: FormProblem;
}

export async function completeResetAction(token: string, _prev: ResetState, form: FormData): Promise<ResetState> {
  const password = String(form.get('password') ?? '');
  const request = await headers();
  try {
    await withRequestOrigin(request, () => completePasswordReset(token, { password }, originOf(request)));
  } catch (error) {
    // The link stopped working meanwhile (used in another tab, replaced, expired): its page says which.
    if (error instanceof AppError && error.code === 'FORBIDDEN') redirect(`/signin/reset/${encodeURIComponent(token)}`);
    if (error instanceof AppError) return { error: { field: error.field, message: error.message } };
    if (error instanceof ZodError) return { error: { field: 'password', message: 'Choose a password' } };
    throw error;
  }
  redirect('/signin?reset=done');
}
