// Runs server/testing/sign-in-instance.ts as separate processes sharing this test file's
// database: each answers the sign-in attempts sent to it, in order.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface InstanceAnswer {
  kind: 'signed-in' | 'second-factor' | 'refused';
  retryAt?: string | null;
  locked?: boolean;
  pid: number;
}

export interface SignInInstance {
  pid: number;
  attempt(input: { email: string; password: string; now: Date; address: string }): Promise<InstanceAnswer>;
  stop(): void;
}

export function startSignInInstance(): SignInInstance {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'server/testing/sign-in-instance.ts'], {
    env: { ...process.env, LOG_FORMAT: 'text' },
  });
  const waiting: Array<(a: InstanceAnswer) => void> = [];
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('{')) waiting.shift()?.(JSON.parse(line) as InstanceAnswer);
  });
  child.on('exit', (code) => {
    if (code) for (const w of waiting.splice(0)) w({ kind: 'refused', pid: -1, retryAt: `instance exited ${code}: ${stderr}` });
  });
  return {
    pid: child.pid!,
    attempt: (input) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify({ ...input, now: input.now.toISOString() })}\n`);
      }),
    stop: () => child.kill(),
  };
}
