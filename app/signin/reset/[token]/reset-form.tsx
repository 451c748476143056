'use client';
// The new password, with the sign-up's field and rules; problems come back on the field.
import { useActionState } from 'react';
import { formProblems, NewPasswordField } from '@/app/_ui/form-state-errors';
import { completeResetAction, type ResetState } from './actions';

export function ResetForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState<ResetState, FormData>(completeResetAction.bind(null, token), {});
  const problems = formProblems(state.error, ['password']);
  return (
    <form action={action} noValidate>
      {problems.general()}
      {/* The account's email, for password managers to file the new password under. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <NewPasswordField problems={problems} label="New password" />
      <button className="button" type="submit" style={{ width: '100%' }} disabled={pending}>
        {pending ? 'Setting it…' : 'Set the new password'}
      </button>
    </form>
  );
}
