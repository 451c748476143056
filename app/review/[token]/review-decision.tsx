'use client';
// Approve, or reject with a comment, one post. The outcome replaces the buttons in place.
import { useId, useState } from 'react';
import styles from '../../connect/_ui/client-page.module.css';

type Outcome = { ok: true; text: string } | { ok: false; text: string };

export function ReviewDecision({ token, postId }: { token: string; postId: string }) {
  const commentId = useId();
  const [rejecting, setRejecting] = useState(false);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [decided, setDecided] = useState(false);

  async function decide(action: 'approve' | 'reject') {
    setBusy(true);
    setOutcome(null);
    const res = await fetch(`/public/review/${token}/posts/${postId}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(action === 'reject' ? { comment } : {}),
    });
    const json = await res.json().catch(() => null);
    setBusy(false);
    if (res.ok) {
      setDecided(true);
      setOutcome({ ok: true, text: action === 'approve' ? 'Approved. Thank you!' : 'Sent back with your comment.' });
      return;
    }
    const message = json?.error?.message ?? (res.status === 429 ? 'Too many attempts. Please wait a minute.' : 'Something went wrong. Please try again.');
    setOutcome({ ok: false, text: message });
  }

  return (
    <div>
      <div role="status" aria-live="polite">
        {outcome && (
          <p className={outcome.ok ? styles.noticeOk : styles.noticeBad} style={{ marginTop: 12, marginBottom: 0 }}>
            {outcome.text}
          </p>
        )}
      </div>
      {!decided && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void decide('reject');
          }}
        >
          {rejecting && (
            <>
              <label className={styles.label} htmlFor={commentId}>
                What should change?
              </label>
              <textarea id={commentId} className={styles.textarea} value={comment} onChange={(e) => setComment(e.target.value)} maxLength={1000} required />
            </>
          )}
          <div className={styles.actions}>
            {!rejecting && (
              <button type="button" className={styles.button} disabled={busy} onClick={() => void decide('approve')}>
                Approve
              </button>
            )}
            {rejecting ? (
              <>
                <button type="submit" className={styles.buttonSecondary} disabled={busy || comment.trim() === ''}>
                  Send back with comment
                </button>
                <button type="button" className={styles.button} disabled={busy} onClick={() => setRejecting(false)}>
                  Cancel
                </button>
              </>
            ) : (
              <button type="button" className={styles.buttonSecondary} disabled={busy} onClick={() => setRejecting(true)}>
                Request changes
              </button>
            )}
          </div>
        </form>
      )}
    </div>
  );
}
