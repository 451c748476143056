// Webhook ingestion of the inbox: Meta's messaging webhook (POST /hooks/meta) under a steady
// push, and killed mid-burst. The goal: 1,000 pushed items a second verified and stored, p95
// under 100 ms from arrival to the row, and no item lost or doubled when the server is killed
// (the network retries; the row is written once).
//
// The receiver is bench/webhook-ingest-server.ts, a child process (so it can be SIGKILLed) on
// the bench's own database; ACCOUNTS live Facebook Pages (default 20) over WORKSPACES
// workspaces (default 2). The sender is this process: signed deliveries prepared beforehand,
// each sent at its time by the clock whether or not the ones before have answered (open loop),
// on keep-alive sockets. An item's latency runs from its delivery's send to the answer: the
// handler answers only after its transaction commits, so the answer comes after the row is
// visible. Cross-checked from the database for every item: the handler's arrival time (the
// delivery record's receivedAt) and the row's createdAt (PostgreSQL's now(): the start of the
// storing transaction), both before the commit, against the same send time.
//
// 1. Load: RATE items a second (default 1,000) for DURATION seconds (default 10), one message a
//    delivery, then BATCH messages a delivery (default 10), after WARMUP seconds not measured.
//    Items/s achieved, p50/p95/p99/max, errors, every item one row and one message.received.
// 2. Kill: a burst of KILL_SECONDS (default 4) at RATE, one message a delivery; after half of
//    it, KILL_SPIKE deliveries (default 100) sent at once, and the receiver SIGKILLed as the
//    first of them is answered (when others of them may be between their commit and their
//    answer), then started again on the same port at once while the burst goes on (what is
//    sent while it is down is refused). Then, as Meta does, every delivery that got no 200 is
//    sent again until each has one, and REDELIVER (default 200) that did get one are sent again
//    too. Every message must be one row with one event.
// Prints numbers and whether the goals were met; asserts no time. The sender, the receiver and
// PostgreSQL share the machine's cores.
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/inbox-webhooks.ts
//   (RATE=1000 DURATION=10 BATCH=10 WARMUP=2 ACCOUNTS=20 WORKSPACES=2 SOCKETS=512 KILL_SECONDS=4 KILL_SPIKE=100 REDELIVER=200)
// PROFILE=1: the receiver times its statements and handler; their totals per phase are printed.
// CPU_PROF=<dir>: the load phase's receiver writes a CPU profile there (bench/cpu-profile-summary.ts);
// the kill phase then starts on a fresh receiver.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { bounded, withBenchDatabase } from './bench-database';

const RATE = Number(process.env.RATE ?? 1_000);
const DURATION = Number(process.env.DURATION ?? 10);
const BATCH = Number(process.env.BATCH ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 2);
const ACCOUNTS = Number(process.env.ACCOUNTS ?? 20);
const WORKSPACES = Number(process.env.WORKSPACES ?? 2);
const SOCKETS = Number(process.env.SOCKETS ?? 512);
const KILL_SECONDS = Number(process.env.KILL_SECONDS ?? 4);
const REDELIVER = Number(process.env.REDELIVER ?? 200);
const KILL_SPIKE = Number(process.env.KILL_SPIKE ?? 100);
const PROFILE = process.env.PROFILE === '1';
const CPU_PROF = process.env.CPU_PROF;
const GOAL_RATE = 1_000;
const GOAL_P95_MS = 100;
const SECRET = 'bench-meta-app-secret';
const SERVER = fileURLToPath(new URL('./webhook-ingest-server.ts', import.meta.url));

/** One signed Meta delivery, prepared before the clock starts. */
interface Delivery {
  body: string;
  signature: string;
  digest: string;
  mids: string[];
}

/** What the sender saw of one delivery: `status` 0 when no answer came (`error` says why). */
interface Answer {
  status: number;
  items: number;
  duplicate: boolean;
  error?: string;
  /** performance.now() when it was due, sent, and answered. */
  dueAt: number;
  sentAt: number;
  ackAt: number;
}

/** `count` deliveries of `batch` messages each, taking turns over the Pages. */
function prepare(tag: string, count: number, batch: number, pages: readonly string[]): Delivery[] {
  const now = Date.now();
  return Array.from({ length: count }, (_, d) => {
    const page = pages[d % pages.length]!;
    const mids = Array.from({ length: batch }, (_, k) => `m_${tag}_${d}_${k}`);
    const body = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: page,
          time: now,
          messaging: mids.map((mid, k) => ({
            sender: { id: `PSID-${(d * batch + k) % 5_000}` },
            recipient: { id: page },
            // As a network dates them: each its own millisecond, in sending order, just past.
            timestamp: now - count * batch + d * batch + k,
            message: { mid, text: `Do you still have the large tote in green? (${tag} ${d}.${k})` },
          })),
        },
      ],
    });
    return {
      body,
      signature: `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      digest: createHash('sha256').update(body).digest('hex'),
      mids,
    };
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: SOCKETS });

/** One delivery: never rejects; a refused connection or a killed server is status 0. */
function deliver(port: number, d: Delivery, dueAt: number): Promise<Answer> {
  const sentAt = performance.now();
  return new Promise((resolve) => {
    const answer = (a: Partial<Answer> & { status: number }) => resolve({ items: 0, duplicate: false, dueAt, sentAt, ackAt: performance.now(), ...a });
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/hooks/meta',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(d.body), 'x-hub-signature-256': d.signature },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e: NodeJS.ErrnoException) => answer({ status: 0, error: e.code ?? e.message }));
        res.on('end', () => {
          if (res.statusCode !== 200) return answer({ status: res.statusCode ?? 0, error: `HTTP ${res.statusCode}` });
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { items: number; duplicate: boolean };
          answer({ status: 200, items: body.items, duplicate: body.duplicate });
        });
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => answer({ status: 0, error: e.code ?? e.message }));
    req.end(d.body);
  });
}

/**
 * Sends `list` open loop, `perSecond` deliveries a second, each at its time whatever the ones
 * before did. Resolves once all are sent, with their answers to come.
 */
async function send(port: () => number, list: readonly Delivery[], perSecond: number): Promise<Promise<Answer>[]> {
  const pending: Promise<Answer>[] = [];
  const start = performance.now();
  for (let i = 0; i < list.length; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(deliver(port(), list[i]!, due));
  }
  return pending;
}

/** `send`, then every answer. */
const burst = async (port: () => number, list: readonly Delivery[], perSecond: number) => Promise.all(await send(port, list, perSecond));

/** CPU seconds (user + system) of one process, and busy and total seconds of the machine (Linux /proc). */
function cpu(pid?: number): { proc: number; busy: number; total: number } {
  const ticks = (s: string) => s.split(/\s+/).map(Number);
  const all = ticks(
    readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .replace(/^cpu\s+/, ''),
  );
  const idle = all[3]! + all[4]!; // idle + iowait
  const total = all.slice(0, 8).reduce((a, b) => a + b, 0);
  let proc = 0;
  if (pid) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    proc = Number(fields[11]) + Number(fields[12]);
  }
  return { proc: proc / 100, busy: (total - idle) / 100, total: total / 100 };
}

const quantile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const spread = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p95: quantile(s, 0.95), p99: quantile(s, 0.99), max: s[s.length - 1] ?? NaN };
};
const fmt = (s: ReturnType<typeof spread>) => `p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  max ${ms(s.max)}`;

/** A table: the header, then one row per line, columns padded (text left, numbers right). */
function table(header: string[], rows: (string | number)[][]) {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[], numeric: boolean) =>
    r.map((c, i) => (i > 0 && numeric && /^[\d.,<>= –-]+$/.test(c) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log(line(header, false));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r, true));
}

/** The receiver: a child process listening on `port` (0: any), started and ready. */
interface Receiver {
  child: ChildProcess;
  port: number;
  /** Warnings the handler logged, by message (a duplicate delivery logs one each). */
  warnings: Map<string, number>;
}

function startReceiver(url: string, port = 0, profile = false): Promise<Receiver> {
  const prof = profile && CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', SERVER], {
    env: { ...process.env, DATABASE_URL: url, META_APP_SECRET: SECRET, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const warnings = new Map<string, number>();
  // Log lines are read (a full pipe would stall the receiver) and counted, not printed: a
  // duplicate delivery logs a warning each. Errors are printed.
  let rest = '';
  child.stderr!.on('data', (b: Buffer) => {
    const lines = (rest + String(b)).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const entry = /^\{/.test(line) ? (JSON.parse(line) as { level?: string; msg?: string }) : { level: 'error', msg: line };
      if (entry.level === 'warn') {
        const kind = (entry.msg ?? '').replace(/\(sha256 [0-9a-f]+…\)/, '(sha256 …)');
        warnings.set(kind, (warnings.get(kind) ?? 0) + 1);
      } else if (line.trim()) console.error(`receiver: ${line}`);
    }
  });
  return bounded(
    new Promise<Receiver>((resolve, reject) => {
      child.stdout!.on('data', (b: Buffer) => {
        const m = /listening (\d+)/.exec(String(b));
        if (m) resolve({ child, port: Number(m[1]), warnings });
      });
      child.once('exit', (code) => reject(new Error(`the receiver exited (${code}) before listening`)));
    }),
    60_000,
    'the receiver to listen',
  );
}

/** The receiver's statement and handler times since the last ask (PROFILE=1). */
function receiverStats(r: Receiver): Promise<Record<string, { n: number; ms: number }>> {
  return bounded(
    new Promise((resolve) => {
      r.child.once('message', (m: { stats: Record<string, { n: number; ms: number }> }) => resolve(m.stats));
      r.child.send({ stats: true });
    }),
    10_000,
    'the receiver’s statistics',
  );
}

function printStats(stats: Record<string, { n: number; ms: number }>, deliveries: number) {
  const rows = Object.entries(stats).sort((a, b) => b[1].ms - a[1].ms);
  table(
    ['receiver (PROFILE=1)', 'count', 'per delivery', 'mean ms', 'total s'],
    rows.map(([k, v]) => [k, v.n, (v.n / deliveries).toFixed(2), (v.ms / v.n).toFixed(2), (v.ms / 1000).toFixed(1)]),
  );
}

await withBenchDatabase(async (url) => {
  const { db } = await import('@/server/db/client');

  // ── Seeding: the workspaces and their live Facebook Pages ──
  const workspaces: { id: string }[] = [];
  for (let w = 0; w < WORKSPACES; w++) {
    workspaces.push(await db.workspace.create({ data: { name: `Bench webhooks ${w}`, slug: `bench-webhooks-${w}-${Date.now()}` } }));
  }
  const pages = Array.from({ length: ACCOUNTS }, (_, a) => `10000${String(a).padStart(5, '0')}`);
  await db.connection.createMany({
    data: pages.map((page, a) => ({
      workspaceId: workspaces[a % WORKSPACES]!.id,
      platform: 'facebook',
      provider: 'live',
      status: 'active',
      externalId: page,
      accountName: `bench-page-${a}`,
      displayName: `Bench Page ${a}`,
      tokenExpiresAt: new Date(Date.now() + 60 * 86_400_000),
    })),
  });

  /** Each of `mids` stored as exactly one row and one message.received event? */
  async function exactlyOnce(tag: string, mids: readonly string[]) {
    const like = `m\\_${tag}\\_%`;
    const rows = await db.$queryRaw<{ externalId: string; n: number }[]>`
      SELECT "externalId", count(*)::int AS n FROM "InboxItem" WHERE kind = 'message' AND "externalId" LIKE ${like} GROUP BY 1`;
    const events = await db.$queryRaw<{ externalId: string; n: number }[]>`
      SELECT data->>'externalId' AS "externalId", count(*)::int AS n FROM "OutboxEvent"
       WHERE type = 'message.received' AND data->>'externalId' LIKE ${like} GROUP BY 1`;
    const count = (found: { externalId: string; n: number }[]) => {
      const by = new Map(found.map((r) => [r.externalId, r.n]));
      return {
        lost: mids.filter((m) => !by.has(m)).length,
        doubled: found.filter((r) => r.n > 1).length,
        total: found.reduce((a, r) => a + r.n, 0),
      };
    };
    return { rows: count(rows), events: count(events) };
  }

  /** Per item, from its delivery's send: to the handler's arrival, to the start of its transaction. */
  async function fromDatabase(tag: string, list: readonly Delivery[], answers: readonly Answer[]) {
    const wall = (perf: number) => performance.timeOrigin + perf;
    const like = `m\\_${tag}\\_%`;
    const items = await db.$queryRaw<{ externalId: string; createdAt: Date }[]>`
      SELECT "externalId", "createdAt" FROM "InboxItem" WHERE kind = 'message' AND "externalId" LIKE ${like}`;
    const received = await db.$queryRaw<{ digest: string; receivedAt: Date }[]>`
      SELECT digest, "receivedAt" FROM "NetworkWebhookDelivery" WHERE outcome = 'accepted' AND digest = ANY(${list.map((d) => d.digest)}::text[])`;
    const indexOf = new Map(list.map((d, i) => [d.digest, i]));
    const toArrival = received.map((r) => r.receivedAt.getTime() - wall(answers[indexOf.get(r.digest)!]!.sentAt));
    let afterAnswer = 0;
    const toRow = items.map((r) => {
      const a = answers[Number(r.externalId.split('_')[2])]!;
      // The row's time can never be after the answer (ms precision either side).
      if (r.createdAt.getTime() > wall(a.ackAt) + 1) afterAnswer++;
      return r.createdAt.getTime() - wall(a.sentAt);
    });
    return { toArrival: spread(toArrival), toRow: spread(toRow), afterAnswer };
  }

  let receiver = await startReceiver(url, 0, true);
  const port = () => receiver.port;
  console.log(
    `receiver pid ${receiver.child.pid} on :${receiver.port}; ${ACCOUNTS} live Facebook Pages in ${WORKSPACES} workspaces; ` +
      `sender: open loop, keep-alive, up to ${SOCKETS} sockets; ${(await import('node:os')).cpus().length} cores shared by sender, receiver and PostgreSQL`,
  );

  // ── 1. Load ──
  if (WARMUP > 0) {
    await burst(port, prepare('warm', RATE * WARMUP, 1, pages), RATE);
    if (PROFILE) await receiverStats(receiver);
  }
  const results: (string | number)[][] = [];
  const checks: string[] = [];
  const verdicts: { batch: number; achieved: number; p95: number; errors: number; lost: number; doubled: number }[] = [];
  for (const batch of [...new Set([1, BATCH])]) {
    const tag = `load${batch}`;
    const list = prepare(tag, Math.round((RATE * DURATION) / batch), batch, pages);
    const before = cpu(receiver.child.pid);
    const senderBefore = process.cpuUsage();
    const answers = await burst(port, list, RATE / batch);
    const after = cpu(receiver.child.pid);
    const senderUsage = process.cpuUsage(senderBefore);
    const sender = (senderUsage.user + senderUsage.system) / 1e6;
    const ok = answers.filter((a) => a.status === 200);
    const items = ok.reduce((n, a) => n + a.items, 0);
    const first = Math.min(...answers.map((a) => a.sentAt));
    const last = Math.max(...answers.map((a) => a.ackAt));
    const achieved = items / ((last - first) / 1000);
    const latency = spread(ok.map((a) => a.ackAt - a.sentAt));
    const lag = spread(answers.map((a) => a.sentAt - a.dueAt));
    const once = await exactlyOnce(
      tag,
      list.flatMap((d) => d.mids),
    );
    const db2 = await fromDatabase(tag, list, answers);
    const errors = new Map<string, number>();
    for (const a of answers) if (a.status !== 200) errors.set(a.error ?? String(a.status), (errors.get(a.error ?? String(a.status)) ?? 0) + 1);
    results.push([
      `${batch} message${batch > 1 ? 's' : ''} a delivery`,
      list.length,
      list.length * batch,
      Math.round(achieved),
      ms(latency.p50),
      ms(latency.p95),
      ms(latency.p99),
      ms(latency.max),
      answers.length - ok.length,
      `${once.rows.total} (${once.rows.lost} lost, ${once.rows.doubled} doubled)`,
      `${once.events.total} (${once.events.lost} lost, ${once.events.doubled} doubled)`,
    ]);
    checks.push(
      `${batch} a delivery, from the database (its times to the millisecond): send → handler's arrival ${fmt(db2.toArrival)} ms; ` +
        `send → transaction start (row createdAt) ${fmt(db2.toRow)} ms; ` +
        `rows dated after their answer: ${db2.afterAnswer}; sender lag behind schedule p99 ${ms(lag.p99)} max ${ms(lag.max)} ms; ` +
        `CPU a delivery: sender ${((sender * 1000) / list.length).toFixed(2)} ms, receiver ${(((after.proc - before.proc) * 1000) / list.length).toFixed(2)} ms, ` +
        `the rest (PostgreSQL, anything else running) ${(((after.busy - before.busy - (after.proc - before.proc) - sender) * 1000) / list.length).toFixed(2)} ms; ` +
        `machine ${(((after.busy - before.busy) / (after.total - before.total)) * 100).toFixed(0)}% busy` +
        (errors.size ? `; errors: ${[...errors].map(([k, n]) => `${n}× ${k}`).join(', ')}` : ''),
    );
    verdicts.push({ batch, achieved, p95: latency.p95, errors: answers.length - ok.length, lost: once.rows.lost, doubled: once.rows.doubled });
    if (PROFILE) {
      console.log(`\n${batch} a delivery:`);
      printStats(await receiverStats(receiver), list.length);
    }
    await new Promise((r) => setTimeout(r, 1000)); // the queue behind one case does not spill into the next
  }
  console.log(
    `\n1. Load: ${RATE} items/s offered for ${DURATION} s (open loop), after ${WARMUP} s of warm-up; latency from send to the answer (after commit), ms`,
  );
  table(['case', 'deliveries', 'items', 'items/s', 'p50', 'p95', 'p99', 'max', 'errors', 'rows', 'message.received'], results);
  for (const c of checks) console.log(`   ${c}`);
  {
    // inbox.sweep's heal of conversations marked newest twice, over every message just stored:
    // what it costs at this size, and that one receiver left none to heal.
    const { healConversationsListedTwice, HEAL_WINDOW_MINUTES } = await import('@/server/inbox/store-conversations');
    const [{ n }] = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "InboxItem" WHERE kind = 'message' AND "networkCreatedAt" > ${new Date(Date.now() - HEAL_WINDOW_MINUTES * 60_000)}`;
    const started = performance.now();
    const healed = await healConversationsListedTwice(db);
    console.log(
      `   inbox.sweep's heal (conversations marked newest twice) over the ${n} messages of its last ${HEAL_WINDOW_MINUTES} minutes: ` +
        `${ms(performance.now() - started)} ms, ${healed} healed`,
    );
  }

  // ── 2. Kill mid-burst ──
  if (CPU_PROF) {
    // A normal exit, so the profile is written.
    const { port: same } = receiver;
    receiver.child.kill('SIGTERM');
    await new Promise((r) => receiver.child.once('exit', r));
    receiver = await startReceiver(url, same);
  }
  const killList = prepare('kill', Math.round(RATE * KILL_SECONDS), 1, pages);
  const half = Math.floor(killList.length / 2);
  const old = receiver;
  const before = await send(port, killList.slice(0, half), RATE);
  // Killed while storing: a spike sent at once (Meta's retries come in bursts too), and the kill
  // as the first of it is answered, when others of it may be between their commit and their answer.
  const spikeList = killList.slice(half, half + KILL_SPIKE);
  const spike = spikeList.map((d) => deliver(port(), d, performance.now()));
  await Promise.race(spike);
  const killedAt = performance.now();
  old.child.kill('SIGKILL');
  // Started again at once, on the same port, as a supervisor would; the burst goes on meanwhile.
  const restarting = startReceiver(url, old.port);
  const after = await send(port, killList.slice(half + spikeList.length), RATE);
  const first = await Promise.all([...before, ...spike, ...after]);
  receiver = await restarting;
  const upAfter = performance.now() - killedAt;
  const firstOk = first.filter((a) => a.status === 200);
  const failures = new Map<string, number>();
  for (const a of first) if (a.status !== 200) failures.set(a.error ?? String(a.status), (failures.get(a.error ?? String(a.status)) ?? 0) + 1);
  // Meta's retries: every delivery without a 200, again, until each has one.
  let unanswered = first.map((a, i) => (a.status === 200 ? -1 : i)).filter((i) => i >= 0);
  const retried = unanswered.length;
  let retriedStored = 0;
  let retriedDuplicate = 0;
  let rounds = 0;
  while (unanswered.length && rounds < 10) {
    rounds++;
    const again = await burst(
      port,
      unanswered.map((i) => killList[i]!),
      RATE,
    );
    retriedStored += again.filter((a) => a.status === 200 && !a.duplicate).length;
    retriedDuplicate += again.filter((a) => a.status === 200 && a.duplicate).length;
    unanswered = unanswered.filter((_, k) => again[k]!.status !== 200);
    if (unanswered.length) await new Promise((r) => setTimeout(r, 1000));
  }
  // And some that were answered: a redelivery of something already stored.
  const answeredIdx = first.map((a, i) => (a.status === 200 ? i : -1)).filter((i) => i >= 0);
  const sample = Array.from({ length: Math.min(REDELIVER, answeredIdx.length) }, (_, k) => answeredIdx[Math.floor((k * answeredIdx.length) / REDELIVER)]!);
  const redelivered = await burst(
    port,
    sample.map((i) => killList[i]!),
    RATE,
  );
  const redeliveredDuplicate = redelivered.filter((a) => a.status === 200 && a.duplicate).length;
  const redeliveredOther = redelivered.length - redeliveredDuplicate;
  const killOnce = await exactlyOnce(
    'kill',
    killList.flatMap((d) => d.mids),
  );
  const duplicateRecords = await db.networkWebhookDelivery.count({ where: { outcome: 'duplicate' } });

  console.log(
    `\n2. Kill: ${killList.length} deliveries (one message each) at ${RATE}/s; after ${half}, ${spikeList.length} sent at once and the receiver ` +
      `SIGKILLed as the first of them was answered; started again at once, the burst going on`,
  );
  console.log(`   back up and listening ${ms(upAfter)} ms after the kill (its start-up, tsx, on the same cores as the burst)`);
  console.log(
    `   first sending: ${firstOk.length} answered 200, ${first.length - firstOk.length} without an answer (${[...failures].map(([k, n]) => `${n}× ${k}`).join(', ') || 'none'})`,
  );
  console.log(
    `   redelivered without a 200: ${retried} in ${rounds} round${rounds === 1 ? '' : 's'}; ${retriedStored} stored then, ${retriedDuplicate} answered duplicate ` +
      `(committed before the kill, their answer lost)${unanswered.length ? `; STILL UNANSWERED ${unanswered.length}` : ''}`,
  );
  console.log(`   redelivered after a 200: ${sample.length}; ${redeliveredDuplicate} answered duplicate, ${redeliveredOther} otherwise`);
  console.log(
    `   rows: ${killOnce.rows.total} for ${killList.length} messages (${killOnce.rows.lost} lost, ${killOnce.rows.doubled} doubled); ` +
      `message.received: ${killOnce.events.total} (${killOnce.events.lost} lost, ${killOnce.events.doubled} doubled); ` +
      `duplicate deliveries recorded: ${duplicateRecords}`,
  );

  receiver.child.kill('SIGTERM');
  await new Promise((r) => receiver.child.once('exit', r));
  agent.destroy();

  // ── Summary ──
  console.log('\nGoals (≥ 1,000 items/s kept up with, p95 < 100 ms, none lost, none doubled):');
  for (const v of verdicts) {
    const rate = RATE >= GOAL_RATE && v.errors === 0 && v.achieved >= 0.99 * RATE;
    const p95 = v.p95 < GOAL_P95_MS;
    const exact = v.lost === 0 && v.doubled === 0;
    console.log(
      `   load, ${v.batch} a delivery: ${Math.round(v.achieved)} items/s of ${RATE} offered ${rate ? 'met' : 'MISSED'}; p95 ${ms(v.p95)} ms ${p95 ? 'met' : 'MISSED'}; ` +
        `${v.lost} lost, ${v.doubled} doubled ${exact ? 'met' : 'MISSED'}`,
    );
  }
  const killExact =
    killOnce.rows.lost === 0 && killOnce.rows.doubled === 0 && killOnce.events.lost === 0 && killOnce.events.doubled === 0 && unanswered.length === 0;
  console.log(`   kill: ${killOnce.rows.lost} lost, ${killOnce.rows.doubled} doubled, events exactly once: ${killExact ? 'met' : 'MISSED'}`);
  const all =
    verdicts.every((v) => v.errors === 0 && v.achieved >= 0.99 * RATE && RATE >= GOAL_RATE && v.p95 < GOAL_P95_MS && !v.lost && !v.doubled) && killExact;
  console.log(`   ${all ? 'GOAL MET' : 'GOAL MISSED'}`);
});
process.exit(0);
