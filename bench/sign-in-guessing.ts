// A guessing run against a running Herald, as an attacker would send it: 60 wrong passwords
// for one account to Auth.js's credentials endpoint (the path the sign-in page and the
// assistant consent's sign-in share), then the right one. Prints each answer and where the
// throttle stepped in: the waits (attempts refused unchecked), the lock, and whether the
// right password got in.
//   npx tsx bench/sign-in-guessing.ts [baseUrl] [email] [password]
//   (defaults: http://localhost:3000 and the seeded demo owner)
// PATIENT=1 waits out each announced wait (up to 40 s) instead of firing on: the run then
// reaches the lock after the 10th failure, as a patient guesser would.
import { setTimeout as sleep } from 'node:timers/promises';

const base = (process.argv[2] ?? 'http://localhost:3000').replace(/\/$/, '');
const email = process.argv[3] ?? 'owner@demo-agency.example';
const password = process.argv[4] ?? 'herald-demo-1234';
const patient = process.env.PATIENT === '1';
const WRONG = 60;

/** Auth.js wants its CSRF token (double-submitted: a cookie and the form field). */
async function csrf(): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${base}/api/auth/csrf`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { token: ((await res.json()) as { csrfToken: string }).csrfToken, cookie };
}

interface Answer {
  status: number;
  verdict: string;
  retryAt: Date | null;
  signedIn: boolean;
}

async function attempt(pass: string): Promise<Answer> {
  const { token, cookie } = await csrf();
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ email, password: pass, csrfToken: token, callbackUrl: `${base}/` }),
  });
  const location = res.headers.get('location') ?? '';
  const signedIn = res.headers.getSetCookie().some((c) => /authjs\.session-token=[^;]+/.test(c));
  const code = location.includes('?') ? new URL(location, base).searchParams.get('code') : null;
  const m = /^(wait|locked)-(\d+)$/.exec(code ?? '');
  const retryAt = m ? new Date(Number(m[2]) * 1000) : null;
  const verdict = signedIn ? 'signed in' : m ? (m[1] === 'locked' ? 'LOCKED' : 'wait') : (code ?? (location || String(res.status)));
  return { status: res.status, verdict, retryAt, signedIn };
}

const started = performance.now();
let firstWait: number | null = null;
let lockedAt: number | null = null;
const counts = new Map<string, number>();
for (let n = 1; n <= WRONG + 1; n++) {
  const right = n === WRONG + 1;
  const t = performance.now();
  const a = await attempt(right ? password : `wrong-guess-${n}`);
  const ms = performance.now() - t;
  counts.set(a.verdict, (counts.get(a.verdict) ?? 0) + 1);
  if (a.retryAt && a.verdict === 'wait' && firstWait === null) firstWait = n;
  if (a.verdict === 'LOCKED' && lockedAt === null) lockedAt = n;
  const retry = a.retryAt ? `, retry in ${Math.max(0, Math.round((a.retryAt.getTime() - Date.now()) / 1000))} s` : '';
  console.log(`${String(n).padStart(2)} ${right ? 'right' : 'wrong'} password → ${a.status} ${a.verdict}${retry} (${ms.toFixed(0)} ms)`);
  if (patient && a.retryAt && a.verdict === 'wait') {
    const wait = a.retryAt.getTime() - Date.now();
    if (wait > 0 && wait <= 40_000) await sleep(wait + 100);
  }
  if (right) {
    console.log(
      `\n${WRONG} wrong then the right password in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
        `${[...counts].map(([k, v]) => `${v}× ${k}`).join(', ')}.\n` +
        `First answer with a wait: attempt ${firstWait ?? 'never'} (later attempts are refused unchecked until it passes); ` +
        `locked: attempt ${lockedAt ?? 'never'}; ` +
        `the right password ${a.signedIn ? 'SIGNED IN (the throttle did not hold)' : 'was refused (throttled)'}.`,
    );
  }
}
