// What a new password must be. Length is what protects it (NIST SP 800-63B: at least 8, no
// composition rules); Herald asks for 10 and refuses the passwords every guesser tries first
// (a list of 10,000 shipped with the project, no network), and the account's own email.
import { AppError } from '@/server/errors/app-error';
import { COMMON_PASSWORDS_TEXT } from './common-passwords/list';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;

// The passwords guessers try first (server/auth/common-passwords/), and a few of Herald's own.
const COMMON = new Set([...COMMON_PASSWORDS_TEXT.split('\n').filter(Boolean), 'herald12345', 'heraldherald']);

/** Refuses a password a person should not use, saying why (field `password`). */
export function checkNewPassword(password: string, email: string): void {
  const refuse = (why: string) => {
    throw new AppError('VALIDATION_FAILED', why, { field: 'password' });
  };
  if (password.length < MIN_PASSWORD_LENGTH) refuse(`Use at least ${MIN_PASSWORD_LENGTH} characters (a few words together are easy to remember)`);
  if (password.length > MAX_PASSWORD_LENGTH) refuse(`Use at most ${MAX_PASSWORD_LENGTH} characters`);
  const lower = password.toLowerCase();
  if (COMMON.has(lower) || /^(.)\1+$/.test(password)) refuse('That password is among the first ones guessed: choose another');
  // Say what was found: the whole address, or only the name before its @ ("maria" in
  // maria@studio.example), which a person may have typed as their own name.
  const address = email.trim().toLowerCase();
  const local = address.split('@')[0] ?? '';
  if (address.length > 0 && lower.includes(address)) refuse('The password must not contain your email address');
  if (local.length >= 4 && lower.includes(local)) refuse(`The password must not contain “${local}”, the name in your email address`);
}
