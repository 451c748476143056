// Where a .cpuprofile's time went: self time by package (node_modules/<name>), Herald's own
// folders, Node internals and garbage collection. Used for docs/performance.md.
//   npx tsx bench/cpu-profile-summary.ts <file.cpuprofile> [top-functions]
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const top = Number(process.argv[3] ?? process.env.TOP ?? 15) || 15;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

function bucket(n: Node): string {
  const { url, functionName } = n.callFrame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)' || functionName === '(program)') return functionName;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(server|app|bench)\/([^/]+)/.exec(url);
  if (own) return `herald ${own[1]}/${own[2]}`;
  if (url.startsWith('node:') || url === '') return 'node internals';
  return url;
}
const buckets = new Map<string, number>();
const fns = new Map<string, number>();
let total = 0;
for (const [id, us] of self) {
  const n = byId.get(id)!;
  const b = bucket(n);
  buckets.set(b, (buckets.get(b) ?? 0) + us);
  if (b !== '(idle)') total += us;
  const fn = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/.*node_modules\//, '').replace(/.*\/work\/[^/]+\//, '')}:${n.callFrame.lineNumber}`;
  fns.set(fn, (fns.get(fn) ?? 0) + us);
}
const pct = (us: number) => `${((100 * us) / total).toFixed(1)} %`.padStart(7);
console.log(`busy time ${(total / 1e6).toFixed(1)} s (idle excluded)`);
for (const [b, us] of [...buckets]
  .filter(([b]) => b !== '(idle)')
  .sort((a, b) => b[1] - a[1])
  .slice(0, 20))
  console.log(`${pct(us)}  ${b}`);
console.log(`\ntop ${top} functions by self time`);
for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${f}`);
