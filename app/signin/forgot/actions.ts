'use server';
// The reset request's action: the service decides and answers alike for every address; only a
// malformed address or the throttle's wait comes back as a problem.
import { headers } from 'next/headers';
import { ZodError } from 'zod';
import type { FormProblem } from '@/app/_ui/form-state-errors';
import { requestPasswordReset } from '@/server/auth/password-reset';
import { originOf, withRequestOrigin } from '@/server/observability/request-origin';

export interface ForgotState {
  /** The address the answer speaks of, once asked. */
  sent?: string;
  error?: FormProblem;
  email?: string;
}

export async function requestResetAction(_prev: ForgotState, form: FormData): Promise<ForgotState> {
  const email = String(form.get('email') ?? '').trim();
  const request = await headers();
  try {
    const outcome = await withRequestOrigin(request, () => requestPasswordReset({ email }, originOf(request)));
    if (outcome.kind === 'throttled') {
      return { email, error: { field: 'email', message: `Too many reset requests for now: try again ${outcome.inWords}.` } };
    }
    return { sent: email };
  } catch (error) {
    if (error instanceof ZodError) return { email, error: { field: 'email', message: 'That does not look like an email address' } };
    throw error;
  }
}
