'use client';
// Setting up an authenticator: the key (as a QR code, an otpauth:// link an authenticator app opens, and
// as text to type), a code typed back to prove the app has it, then the recovery codes, once.
import { useActionState, type ReactNode } from 'react';
import { enrolAction, type EnrolState } from './actions';

/** The key in groups of four, as authenticator apps print it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** `back`: the way out of the set-up, offered until it is done (then "continue" leads on). */
export function EnrolForm({ initial, next, back }: { initial: EnrolState; next: string; back: ReactNode }) {
  const [current, act, acting] = useActionState(enrolAction, initial);
  return (
    <>
      <Stage current={current} act={act} acting={acting} next={next} />
      {current.stage === 'done' ? null : back}
    </>
  );
}

function Stage({ current, act, acting, next }: { current: EnrolState; act: (form: FormData) => void; acting: boolean; next: string }) {
  if (current.stage === 'start') {
    return (
      <form action={act}>
        <input type="hidden" name="intent" value="start" />
        <button className="button" type="submit" disabled={acting} style={{ width: '100%' }}>
          Set up an authenticator app
        </button>
      </form>
    );
  }
  if (current.stage === 'done') {
    return (
      <div data-testid="recovery-codes">
        <p>
          <strong>Two-factor sign-in is on.</strong> Keep these recovery codes somewhere safe (a password manager, or printed): each signs you in once if you
          lose your phone. They are shown only now.
        </p>
        <ul style={{ fontFamily: 'ui-monospace, monospace', columns: 2, paddingLeft: 20 }}>
          {current.recoveryCodes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <a className="button" href={next} style={{ display: 'block', textAlign: 'center' }}>
          I saved them: continue
        </a>
      </div>
    );
  }
  return (
    <form action={act}>
      <ol style={{ paddingLeft: 20 }}>
        <li>
          Add Herald to your authenticator app (1Password, Google Authenticator, Authy, Microsoft Authenticator…): scan this code,
          {/* eslint-disable-next-line @next/next/no-img-element -- a data URL drawn on the server, nothing to optimise */}
          <img
            src={current.qr}
            alt="QR code of the key for your authenticator app"
            width={180}
            height={180}
            data-testid="totp-qr"
            style={{ display: 'block', margin: '8px 0' }}
          />
          or on this phone <a href={current.uri}>open it in the app</a>; or choose “enter a setup key” and type this key:
          <p style={{ fontFamily: 'ui-monospace, monospace', fontSize: '1.1rem', letterSpacing: 1 }} data-testid="totp-secret" data-secret={current.secret}>
            {grouped(current.secret)}
          </p>
          <p style={{ fontSize: '0.85rem' }}>Time-based, 6 digits, every 30 seconds (the apps’ default).</p>
        </li>
        <li>Type the six-digit code the app now shows for Herald.</li>
      </ol>
      {current.error ? (
        <p className="error" role="alert">
          {current.error}
        </p>
      ) : null}
      <label className="field">
        Code from the app
        <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" required maxLength={7} />
      </label>
      <button className="button" type="submit" disabled={acting} style={{ width: '100%' }}>
        Turn on two-factor sign-in
      </button>
    </form>
  );
}
