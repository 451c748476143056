'use client';
// The sign-up form: the agency, its owner, the password and the time zone (the browser's,
// changeable). Problems come back on the field they concern, with what was typed kept.
import { useActionState } from 'react';
import { useBrowserTimeZone } from '@/app/_ui/browser-time-zone';
import { timeZoneNames } from '@/server/shared/time-zone';
import { signUpAction, type SignUpState } from './actions';
import { formProblems, NewPasswordField } from '@/app/_ui/form-state-errors';

export function SignUpForm({ invite }: { invite: string | null }) {
  const [state, action, pending] = useActionState<SignUpState, FormData>(signUpAction, {});
  const zone = useBrowserTimeZone() ?? 'UTC';
  const v = state.values ?? {};
  const problems = formProblems(state.error, ['agencyName', 'name', 'email', 'password', 'timeZone']);
  const err = problems.at;
  const invalid = problems.invalid;
  return (
    <form action={action} noValidate>
      {problems.general()}
      {invite ? <input type="hidden" name="invite" value={invite} /> : null}
      <label className="field">
        Agency name
        <input name="agencyName" required autoComplete="organization" defaultValue={v.agencyName} {...invalid('agencyName')} />
        {err('agencyName')}
      </label>
      <label className="field">
        Your name
        <input name="name" required autoComplete="name" defaultValue={v.name} {...invalid('name')} />
        {err('name')}
      </label>
      <label className="field">
        Email
        <input name="email" type="email" required autoComplete="username" defaultValue={v.email} {...invalid('email')} />
        {err('email')}
      </label>
      <NewPasswordField problems={problems} />
      <label className="field">
        Time zone
        <select name="timeZone" key={zone} defaultValue={v.timeZone || zone} className="signup-select" {...invalid('timeZone')}>
          {timeZoneNames().map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        {err('timeZone')}
      </label>
      <button className="button" type="submit" style={{ width: '100%' }} disabled={pending}>
        {pending ? 'Creating your agency…' : 'Create the agency'}
      </button>
    </form>
  );
}
