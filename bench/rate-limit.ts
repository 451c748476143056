// What the per-workspace rate limiter adds to a request: one consume() per call.
//   npx tsx bench/rate-limit.ts   (N=5000)
import { withBenchDatabase } from './bench-database';

const N = Number(process.env.N ?? 5000);
process.env.RATE_LIMIT_PER_MINUTE = String(N * 10);

await withBenchDatabase(async () => {
  const { consumeRequest } = await import('@/server/ratelimit/limiter');
  const ws = crypto.randomUUID();
  for (let i = 0; i < 200; i++) await consumeRequest(ws); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await consumeRequest(ws);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.floor(p * (samples.length - 1))]!.toFixed(3);
  console.log(`rate limiter consume(), ${N} sequential calls: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms`);
  const t = performance.now();
  await Promise.all(Array.from({ length: 1000 }, (_, i) => consumeRequest(`ws-${i % 50}`)));
  console.log(`1000 concurrent calls over 50 workspaces: ${(performance.now() - t).toFixed(0)} ms total`);
});
process.exit(0);
