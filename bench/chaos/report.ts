// What `npm run chaos` prints: one PASS/FAIL line per promise, with the numbers behind it.
export interface Verdict {
  scenario: string;
  promise: string;
  pass: boolean;
  detail: string;
}

const verdicts: Verdict[] = [];

export function check(scenario: string, promise: string, pass: boolean, detail: string): void {
  verdicts.push({ scenario, promise, pass, detail });
  console.log(`${pass ? 'PASS' : 'FAIL'}  [${scenario}] ${promise} — ${detail}`);
}

export function allPassed(): boolean {
  return verdicts.every((v) => v.pass);
}

export function summary(): string {
  const failed = verdicts.filter((v) => !v.pass).length;
  return `${verdicts.length - failed} passed, ${failed} failed`;
}

/** Ends a scenario script with its main's exit code (1 when it threw). */
export function exitWith(main: Promise<number>): void {
  main.then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
