'use client';
// One button per channel. A click mints a connect session and spends it on that channel:
// OAuth channels continue on the platform's consent page; sandbox channels connect a demo
// account at once, confirmed here without leaving the page.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import styles from '../_ui/client-page.module.css';
import { PlatformBadge } from '../_ui/platforms';

interface Channel {
  platform: string;
  label: string;
  mode: 'oauth' | 'sandbox' | 'unavailable';
}

const HINTS: Record<Channel['mode'], string> = {
  oauth: 'Sign in with your account',
  sandbox: 'Demo account (sandbox)',
  unavailable: 'Not available yet',
};

type Answer<T> = { ok: true; data: T } | { ok: false; message: string };
type Started = { kind: 'redirect'; authorizeUrl: string } | { kind: 'connected'; connection: { displayName: string } };

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
    message: res.status === 429 ? 'Too many attempts. Please wait a minute and try again.' : (message ?? 'Something went wrong. Please try again.'),
  };
}

export function ChannelButtons({ token, channels }: { token: string; channels: Channel[] }) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  async function connect(channel: Channel) {
    setBusy(channel.platform);
    setNotice(null);
    const session = await post<{ session: string }>(`/public/connect/${token}/session`);
    const started = session.ok
      ? await post<Started>(`/public/connect/${token}/authorize`, { session: session.data.session, platform: channel.platform })
      : session;
    if (!started.ok) {
      setNotice({ ok: false, text: started.message });
      setBusy(null);
      return;
    }
    if (started.data.kind === 'redirect') {
      window.location.assign(started.data.authorizeUrl);
      return;
    }
    setNotice({ ok: true, text: `Connected ${started.data.connection.displayName} on ${channel.label}.` });
    setBusy(null);
    router.refresh();
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
        {channels.map((channel) => (
          <li key={channel.platform}>
            <button
              type="button"
              className={styles.channelButton}
              disabled={channel.mode === 'unavailable' || busy !== null}
              aria-busy={busy === channel.platform}
              onClick={() => void connect(channel)}
            >
              <PlatformBadge platform={channel.platform} />
              <span className={styles.channelText}>
                <span>{busy === channel.platform ? `Connecting ${channel.label}…` : `Connect ${channel.label}`}</span>
                <span className={styles.channelHint}>{HINTS[channel.mode]}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
