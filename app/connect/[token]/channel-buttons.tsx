'use client';
// One button per channel. A click mints a connect session and spends it on that channel:
// OAuth channels continue on the platform's consent page; a demo account (where offered: under
// the button, or the button itself when no real account can be connected here) connects at
// once, confirmed here without leaving the page. A channel that needs something
// typed first (a Bluesky app password, a Mastodon server, a Telegram channel) opens a short
// form under its button; a refusal lands next to the fields and keeps what was typed.
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { ConnectField } from '@/server/connect/oauth/oauth-provider';
import styles from '../_ui/client-page.module.css';
import { PlatformBadge } from '../_ui/platforms';

interface Channel {
  platform: string;
  label: string;
  mode: 'oauth' | 'credentials' | 'sandbox' | 'unavailable';
  fields: ConnectField[];
  instructions: string | null;
  /** A demo account can be connected too (it publishes nowhere). */
  demo: boolean;
}

const HINTS: Record<Channel['mode'], string> = {
  oauth: 'Sign in with your account',
  credentials: 'Connect with your account details',
  sandbox: 'Demo account only: it publishes nowhere',
  unavailable: 'Not available yet',
};

type Answer<T> = { ok: true; data: T } | { ok: false; message: string; field?: string };
type Started = { kind: 'redirect'; authorizeUrl: string } | { kind: 'connected'; connection: { displayName: string } } | { kind: 'choose'; attempt: string };

async function post<T>(url: string, body?: unknown): Promise<Answer<T>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const json = await res.json().catch(() => null);
  if (res.ok) return { ok: true, data: json?.data as T };
  const message = json?.error?.message ?? (Array.isArray(json?.message) ? json.message.join(', ') : json?.message);
  return {
    ok: false,
    field: json?.error?.field,
    message: res.status === 429 ? 'Too many attempts. Please wait a minute and try again.' : (message ?? 'Something went wrong. Please try again.'),
  };
}

export function ChannelButtons({ token, channels }: { token: string; channels: Channel[] }) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [formError, setFormError] = useState<{ platform: string; text: string; field?: string } | null>(null);

  async function connect(channel: Channel, values?: Record<string, string>, demo = false) {
    setBusy(channel.platform);
    setNotice(null);
    setFormError(null);
    const session = await post<{ session: string }>(`/public/connect/${token}/session`);
    const started = session.ok
      ? await post<Started>(`/public/connect/${token}/authorize`, {
          session: session.data.session,
          platform: channel.platform,
          ...(values ? { values } : {}),
          ...(demo ? { demo: true } : {}),
        })
      : session;
    if (!started.ok) {
      if (values) setFormError({ platform: channel.platform, text: started.message, field: started.field?.replace(/^values\./, '') });
      else setNotice({ ok: false, text: started.message });
      setBusy(null);
      return;
    }
    if (started.data.kind === 'redirect') {
      window.location.assign(started.data.authorizeUrl);
      return;
    }
    if (started.data.kind === 'choose') {
      router.push(`/connect/${token}?attempt=${started.data.attempt}`);
      setBusy(null);
      return;
    }
    setOpen(null);
    setNotice({ ok: true, text: `Connected ${started.data.connection.displayName} on ${channel.label}.` });
    setBusy(null);
    router.refresh();
  }

  function submit(channel: Channel, event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void connect(channel, Object.fromEntries(channel.fields.map((f) => [f.name, String(data.get(f.name) ?? '')])));
  }

  return (
    <>
      <div aria-live="polite" role="status">
        {notice && (
          <p className={notice.ok ? styles.noticeOk : styles.noticeBad} data-testid={notice.ok ? 'connect-confirmation' : 'connect-error'}>
            {notice.text}
          </p>
        )}
      </div>
      <ul className={styles.channels}>
        {channels.map((channel) => {
          const asks = channel.mode !== 'sandbox' && channel.fields.length > 0;
          const expanded = asks && open === channel.platform;
          const formId = `connect-form-${channel.platform}`;
          const error = formError?.platform === channel.platform ? formError : null;
          return (
            <li key={channel.platform} className={expanded ? styles.channelOpen : undefined}>
              <button
                type="button"
                className={styles.channelButton}
                disabled={channel.mode === 'unavailable' || busy !== null}
                aria-busy={busy === channel.platform}
                aria-expanded={asks ? expanded : undefined}
                aria-controls={asks ? formId : undefined}
                onClick={() => (asks ? setOpen(expanded ? null : channel.platform) : void connect(channel))}
              >
                <PlatformBadge platform={channel.platform} />
                <span className={styles.channelText}>
                  <span>{busy === channel.platform ? `Connecting ${channel.label}…` : `Connect ${channel.label}`}</span>
                  <span className={styles.channelHint}>{HINTS[channel.mode]}</span>
                </span>
              </button>
              {channel.demo && channel.mode !== 'sandbox' && (
                <button type="button" className={styles.demoButton} disabled={busy !== null} onClick={() => void connect(channel, undefined, true)}>
                  Or try a {channel.label} demo account (publishes nowhere)
                </button>
              )}
              {expanded && (
                <form id={formId} className={styles.channelForm} onSubmit={(e) => submit(channel, e)} aria-label={`Connect ${channel.label}`}>
                  {channel.instructions && <p className={styles.channelHint}>{channel.instructions}</p>}
                  {channel.fields.map((field, index) => {
                    const id = `${channel.platform}-${field.name}`;
                    const invalid = error !== null && (error.field === field.name || (!error.field && index === 0));
                    return (
                      <div key={field.name}>
                        <label className={styles.label} htmlFor={id}>
                          {field.label}
                          {field.optional ? <span className={styles.channelHint}> (optional)</span> : null}
                        </label>
                        <input
                          id={id}
                          name={field.name}
                          className={styles.input}
                          type={field.type === 'password' ? 'password' : 'text'}
                          inputMode={field.type === 'url' ? 'url' : undefined}
                          autoComplete={field.type === 'password' ? 'off' : undefined}
                          autoCapitalize="none"
                          spellCheck={false}
                          placeholder={field.placeholder}
                          required={!field.optional}
                          autoFocus={index === 0}
                          aria-invalid={invalid || undefined}
                          aria-describedby={field.help ? `${id}-help` : undefined}
                        />
                        {field.help && (
                          <p id={`${id}-help`} className={styles.channelHint}>
                            {field.help}
                          </p>
                        )}
                      </div>
                    );
                  })}
                  {error && (
                    <p className={styles.noticeBad} role="alert" data-testid="connect-error">
                      {error.text}
                    </p>
                  )}
                  <div className={styles.actions}>
                    <button type="submit" className={styles.button} disabled={busy !== null}>
                      {busy === channel.platform ? 'Connecting…' : `Connect ${channel.label}`}
                    </button>
                  </div>
                </form>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}
