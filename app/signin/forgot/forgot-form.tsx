'use client';
// The email to send a reset link to; then the same answer whatever the address.
import { useActionState } from 'react';
import { formProblems } from '@/app/_ui/form-state-errors';
import { requestResetAction, type ForgotState } from './actions';

export function ForgotForm({ linkMinutes }: { linkMinutes: number }) {
  const [state, action, pending] = useActionState<ForgotState, FormData>(requestResetAction, {});
  const problems = formProblems(state.error, ['email']);
  if (state.sent) {
    return (
      <div role="status" data-testid="reset-sent">
        <p>
          If an account exists for <strong>{state.sent}</strong>, we sent a link to it. Open it within {linkMinutes} minutes to choose a new password; it works
          once.
        </p>
        <p className="muted">Nothing arrived after a few minutes? Check the spam folder and the address you typed, then ask again.</p>
      </div>
    );
  }
  return (
    <form action={action} noValidate>
      {problems.general()}
      <p className="muted">Type the email you sign in with. If it has an account, we send it a link to choose a new password.</p>
      <label className="field">
        Email
        <input name="email" type="email" required autoComplete="username" autoFocus defaultValue={state.email} {...problems.invalid('email')} />
        {problems.at('email')}
      </label>
      <button className="button" type="submit" style={{ width: '100%' }} disabled={pending}>
        {pending ? 'Sending…' : 'Send the link'}
      </button>
    </form>
  );
}
