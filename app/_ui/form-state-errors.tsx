// The no-login forms' problems (sign-up, a team invitation, a password reset): a server action answers
// `{ error: { field?, message } }`; the problem shows beside its field (and the field says so
// to assistive technology), or above the form when it concerns none of the fields shown.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { MIN_PASSWORD_LENGTH } from '@/server/auth/password-rules';

export interface FormProblem {
  field?: string;
  message: string;
  /** Where the person can go to get past it ("sign in instead"), shown with the message. */
  links?: { href: string; label: string }[];
}

/** The message, then its ways forward. */
function problemText(error: FormProblem): ReactNode {
  return (
    <>
      {error.message}
      {error.links?.map((l) => (
        <span key={l.href}>
          {' '}
          <Link href={l.href}>{l.label}</Link>
        </span>
      ))}
    </>
  );
}

export function formProblems(error: FormProblem | undefined, fields: readonly string[]) {
  return {
    /** The message beside `field`, when it is that field's. */
    at: (field: string): ReactNode =>
      error?.field === field ? (
        <span className="error" role="alert" id={`${field}-error`}>
          {problemText(error)}
        </span>
      ) : null,
    /** The attributes that tie `field` to its message. */
    invalid: (field: string) => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${field}-error` } : {}),
    /** A problem of no field shown, above the form. */
    general: (): ReactNode =>
      error && !fields.includes(error.field ?? '') ? (
        <p className="error" role="alert">
          {problemText(error)}
        </p>
      ) : null,
  };
}

/** The new-password field of the no-login forms: the server's own length rule, and how to meet it. */
export function NewPasswordField({ problems, label = 'Password' }: { problems: ReturnType<typeof formProblems>; label?: string }) {
  return (
    <label className="field">
      {label}
      <input name="password" type="password" required autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} {...problems.invalid('password')} />
      <span className="muted" style={{ fontSize: 13 }}>
        At least {MIN_PASSWORD_LENGTH} characters; a few words together are easy to remember.
      </span>
      {problems.at('password')}
    </label>
  );
}
