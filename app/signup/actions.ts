'use server';
// The sign-up form's action: the agency and its owner through the sign-up service, then the
// new owner signed in (by path: the address the browser opened) and sent to the dashboard.
import { redirect } from 'next/navigation';
import { ZodError } from 'zod';
import { isEmailTaken, signUpAgency } from '@/server/agencies/sign-up';
import { signIn } from '@/server/auth/staff-auth';
import { AppError } from '@/server/errors/app-error';
import type { FormProblem } from '@/app/_ui/form-state-errors';

export interface SignUpState {
  error?: FormProblem;
  values?: Record<string, string>;
}

const FIELDS = ['agencyName', 'name', 'email', 'timeZone', 'invite'] as const;

export async function signUpAction(_prev: SignUpState, form: FormData): Promise<SignUpState> {
  const values = Object.fromEntries(FIELDS.map((f) => [f, String(form.get(f) ?? '')]));
  const password = String(form.get('password') ?? '');
  try {
    await signUpAgency({
      agencyName: values.agencyName!,
      name: values.name!,
      email: values.email!,
      password,
      timeZone: values.timeZone!,
      ...(values.invite ? { invite: values.invite } : {}),
    });
  } catch (error) {
    if (isEmailTaken(error)) {
      // The account works somewhere: the way in is signing in (or a reset, if the password is gone).
      const links = [
        { href: '/signin', label: 'Sign in' },
        { href: '/signin/forgot', label: 'Forgot your password?' },
      ];
      return { error: { field: 'email', message: (error as AppError).message, links }, values };
    }
    if (error instanceof AppError) return { error: { field: error.field, message: error.message }, values };
    if (error instanceof ZodError) {
      const issue = error.issues[0]!;
      const field = String(issue.path[0] ?? '');
      const words: Record<string, string> = {
        agencyName: 'Give the agency a name (2 to 80 characters)',
        name: 'Say who you are (your name)',
        email: 'That does not look like an email address',
        timeZone: 'Pick a time zone from the list',
      };
      return { error: { field, message: words[field] ?? issue.message }, values };
    }
    throw error;
  }
  await signIn('credentials', { email: values.email!.toLowerCase(), password, redirect: false });
  redirect('/');
}
