'use client';
// One button per channel. A click mints a connect session and spends it on that channel:
// OAuth channels continue on the platform's consent page; a demo account (where offered: under
// the button, or the button itself when no real account can be connected here) connects at
// once, confirmed here without leaving the page. A channel that needs something
// typed first (a Bluesky app password, a Mastodon server, a Telegram channel) opens a short
// form under its button; a refusal lands next to the fields and keeps what was typed. A channel
// approved in the network's own app (Farcaster) shows the approval link under its button and
// checks with Herald, every few seconds and when the client says they approved, until it is.
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ConnectField } from '@/server/connect/oauth/oauth-provider';
import styles from '../_ui/client-page.module.css';
import { PlatformBadge } from '../_ui/platforms';

interface Channel {
  platform: string;
  label: string;
  mode: 'oauth' | 'credentials' | 'approval' | 'sandbox' | 'unavailable';
  fields: ConnectField[];
  instructions: string | null;
  /** A demo account can be connected too (it publishes nowhere). */
  demo: boolean;
}

const HINTS: Record<Channel['mode'], string> = {
  oauth: 'Sign in with your account',
  credentials: 'Connect with your account details',
  approval: 'Approve in the app, then come back',
  sandbox: 'Demo account only: it publishes nowhere',
  unavailable: 'Not available yet',
};

type Answer<T> = { ok: true; data: T } | { ok: false; message: string; field?: string };
type Started =
  | { kind: 'redirect'; authorizeUrl: string }
  | { kind: 'connected'; connection: { displayName: string } }
  | { kind: 'choose'; attempt: string }
  | { kind: 'approve'; approvalUrl: string; attempt: string };
type Checked = { status: 'pending' | 'completed' | 'failed' | 'choosing'; attempt: string; message: string | null; connection: { displayName: string } | null };

/** How often the page asks whether the approval was given. */
const CHECK_EVERY_MS = 3_000;

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
  const [approval, setApproval] = useState<{ channel: Channel; url: string; note: string | null } | null>(null);
  const checking = useRef(false);

  async function check(asked: boolean) {
    if (!approval || checking.current) return;
    checking.current = true;
    const answer = await post<Checked>(`/public/connect/${token}/approval`);
    checking.current = false;
    if (!answer.ok) {
      setApproval(null);
      setNotice({ ok: false, text: answer.message });
      return;
    }
    const { status, message, connection } = answer.data;
    if (status === 'pending') {
      if (asked || message)
        setApproval({ ...approval, note: message ?? `Not approved yet. Approve Herald in the ${approval.channel.label} app, then try again.` });
      return;
    }
    setApproval(null);
    if (status === 'completed' && connection) {
      setNotice({ ok: true, text: `Connected ${connection.displayName} on ${approval.channel.label}.` });
      router.refresh();
    } else if (status === 'choosing') router.push(`/connect/${token}?attempt=${answer.data.attempt}`);
    else setNotice({ ok: false, text: message ?? 'The connection did not complete. Please try again.' });
  }

  // While an approval is awaited, ask now and then: the client may approve on another device.
  useEffect(() => {
    if (!approval) return;
    const timer = setInterval(() => void check(false), CHECK_EVERY_MS);
    return () => clearInterval(timer);
  });

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
    if (started.data.kind === 'approve') {
      setApproval({ channel, url: started.data.approvalUrl, note: null });
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
                disabled={channel.mode === 'unavailable' || busy !== null || approval !== null}
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
              {approval?.channel.platform === channel.platform && (
                <div className={styles.channelForm} data-testid="connect-approval" aria-label={`Approve Herald in ${channel.label}`} role="group">
                  {channel.instructions && <p className={styles.channelHint}>{channel.instructions}</p>}
                  <p>
                    <a href={approval.url} target="_blank" rel="noopener noreferrer" className={styles.button}>
                      Open the approval in {channel.label}
                    </a>
                  </p>
                  <p className={styles.channelHint}>On a computer, open this link on your phone: {approval.url}</p>
                  {approval.note && (
                    <p className={styles.noticeBad} role="status" data-testid="connect-approval-note">
                      {approval.note}
                    </p>
                  )}
                  <div className={styles.actions}>
                    <button type="button" className={styles.button} onClick={() => void check(true)}>
                      I approved it — continue
                    </button>
                  </div>
                </div>
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
