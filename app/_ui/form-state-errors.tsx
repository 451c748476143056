// The no-login forms' problems (sign-up, a team invitation): a server action answers
// `{ error: { field?, message } }`; the problem shows beside its field (and the field says so
// to assistive technology), or above the form when it concerns none of the fields shown.
import type { ReactNode } from 'react';
import { MIN_PASSWORD_LENGTH } from '@/server/auth/password-rules';

export interface FormProblem {
  field?: string;
  message: string;
}

export function formProblems(error: FormProblem | undefined, fields: readonly string[]) {
  return {
    /** The message beside `field`, when it is that field's. */
    at: (field: string): ReactNode =>
      error?.field === field ? (
        <span className="error" role="alert" id={`${field}-error`}>
          {error.message}
        </span>
      ) : null,
    /** The attributes that tie `field` to its message. */
    invalid: (field: string) => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${field}-error` } : {}),
    /** A problem of no field shown, above the form. */
    general: (): ReactNode =>
      error && !fields.includes(error.field ?? '') ? (
        <p className="error" role="alert">
          {error.message}
        </p>
      ) : null,
  };
}

/** The new-password field of the no-login forms: the server's own length rule, and how to meet it. */
export function NewPasswordField({ problems }: { problems: ReturnType<typeof formProblems> }) {
  return (
    <label className="field">
      Password
      <input name="password" type="password" required autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} {...problems.invalid('password')} />
      <span className="muted" style={{ fontSize: 13 }}>
        At least {MIN_PASSWORD_LENGTH} characters; a few words together are easy to remember.
      </span>
      {problems.at('password')}
    </label>
  );
}
