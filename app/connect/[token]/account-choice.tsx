'use client';
// After a Facebook or Instagram consent: the Pages or business accounts the client shared,
// one to pick. The choice goes to the session this browser started (its cookie).
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import styles from '../_ui/client-page.module.css';

interface Choice {
  id: string;
  displayName: string;
  accountName: string;
  kind: string | null;
}

export function AccountChoice({ token, attemptId, choices }: { token: string; attemptId: string; choices: Choice[] }) {
  const router = useRouter();
  const [selected, setSelected] = useState(choices[0]?.id ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const res = await fetch(`/public/connect/${token}/choose`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountId: selected }),
      credentials: 'same-origin',
    });
    if (res.ok) {
      router.replace(`/connect/${token}?attempt=${attemptId}`);
      router.refresh();
      return;
    }
    const json = await res.json().catch(() => null);
    setError(json?.error?.message ?? 'Something went wrong. Please start again.');
    setBusy(false);
  }

  return (
    <form onSubmit={(e) => void submit(e)}>
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className={styles.visuallyHidden}>Accounts you shared</legend>
        <ul className={styles.choices}>
          {choices.map((c) => (
            <li key={c.id}>
              <label className={styles.choice}>
                <input type="radio" name="account" value={c.id} checked={selected === c.id} onChange={() => setSelected(c.id)} />
                <span className={styles.accountText}>
                  <span className={styles.accountName}>{c.displayName}</span>
                  <span className={styles.accountMeta}>{[c.kind, c.accountName].filter(Boolean).join(' · ')}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {error && (
        <p className={styles.noticeBad} role="alert">
          {error}
        </p>
      )}
      <button type="submit" className={styles.button} disabled={busy || !selected}>
        {busy ? 'Connecting…' : 'Connect this account'}
      </button>
    </form>
  );
}
