// Seeds the e2e database (DATABASE_URL, prepared by `npm test`) with the demo data and
// hands the seed's JSON line to the tests.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function globalSetup(): void {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL must point at the e2e database (run `npm test`)');
  const out = execFileSync(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'prisma/seed.ts'], {
    env: process.env,
    encoding: 'utf8',
  });
  const last = out.trim().split('\n').at(-1)!;
  process.env.HERALD_SEED = last;
}
