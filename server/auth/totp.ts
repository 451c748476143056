// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) through `otpauth`, a
// maintained implementation: HMAC-SHA1, 30-second steps, six digits, the parameters every
// authenticator app reads from an otpauth:// URI. This module is the only place that names
// the library; two-factor.ts holds the rules around it (enrolment, one use per code, recovery
// codes). Checked against RFC 6238's test vectors (totp.test.ts).
import { HOTP, Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now: a phone clock 30 s off, or a code typed as it turned. */
const DRIFT_STEPS = 1;

/** RFC 4648 base32, no padding: the form authenticator apps take a secret in. */
export function base32Encode(bytes: Buffer): string {
  return new Secret({ buffer: Uint8Array.from(bytes).buffer }).base32;
}

export function base32Decode(text: string): Buffer {
  return Buffer.from(Secret.fromBase32(text.toUpperCase().replace(/[\s=-]/g, '')).bytes);
}

/** A new secret: 160 random bits (RFC 4226 §4 recommends at least that), base32. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export const totpStep = (at: Date) => Math.floor(at.getTime() / 1000 / TOTP_PERIOD_S);

/** The code of one time step. */
export function totpCode(secret: string, step: number, digits = TOTP_DIGITS, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  return HOTP.generate({ secret: Secret.fromBase32(secret), algorithm: algorithm.toUpperCase(), digits, counter: step });
}

const totpOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_S });

/**
 * The time step a code belongs to, within the drift allowed around `at`, or null. The caller
 * refuses a step it already accepted (a code is good once).
 */
export function matchTotp(secret: string, code: string, at: Date): number | null {
  const typed = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(typed)) return null;
  const delta = totpOf(secret).validate({ token: typed, timestamp: at.getTime(), window: DRIFT_STEPS });
  return delta === null ? null : totpStep(at) + delta;
}

/** The otpauth:// URI an authenticator app reads (from the QR code or a tap on a phone). */
export function otpauthUri(opts: { secret: string; account: string; issuer: string }): string {
  const totp = new TOTP({
    issuer: opts.issuer,
    label: opts.account,
    secret: Secret.fromBase32(opts.secret),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_S,
  });
  return totp.toString();
}
