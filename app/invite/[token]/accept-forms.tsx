'use client';
// The two ways to accept an invitation; problems come back on the field they concern.
import { useActionState } from 'react';
import { acceptAsMemberAction, acceptWithPasswordAction, type AcceptState } from './actions';
import { formProblems, NewPasswordField } from '@/app/_ui/form-state-errors';

export function AcceptWithPassword({ token }: { token: string }) {
  const [state, action, pending] = useActionState<AcceptState, FormData>(acceptWithPasswordAction.bind(null, token), {});
  const problems = formProblems(state.error, ['name', 'password']);
  const err = problems.at;
  const invalid = problems.invalid;
  return (
    <form action={action} noValidate>
      {problems.general()}
      <label className="field">
        Your name
        <input name="name" required autoComplete="name" defaultValue={state.name} {...invalid('name')} />
        {err('name')}
      </label>
      <NewPasswordField problems={problems} />
      <button className="button" type="submit" style={{ width: '100%' }} disabled={pending}>
        {pending ? 'Joining…' : 'Join the team'}
      </button>
    </form>
  );
}

export function AcceptAsMember({ token, agencyName }: { token: string; agencyName: string }) {
  const [state, action, pending] = useActionState<AcceptState, FormData>(() => acceptAsMemberAction(token), {});
  return (
    <form action={action}>
      {state.error ? (
        <p className="error" role="alert">
          {state.error.message}
        </p>
      ) : null}
      <button className="button" type="submit" style={{ width: '100%' }} disabled={pending}>
        {pending ? 'Joining…' : `Join ${agencyName}`}
      </button>
    </form>
  );
}
