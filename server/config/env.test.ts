import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkConfiguration, CONFIGURATION_VARIABLES, env } from './env';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** The variable names in the first column of README.md → "Configuration". */
function readmeVariables(): string[] {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2); // header, separator
  return rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
}

describe('configuration', () => {
  it('documents exactly the variables env.ts reads, in the README table', () => {
    const documented = readmeVariables();
    expect(documented.length).toBeGreaterThan(0);
    expect(new Set(documented).size).toBe(documented.length);
    expect(new Set(CONFIGURATION_VARIABLES).size).toBe(CONFIGURATION_VARIABLES.length);
    expect([...documented].sort()).toEqual([...CONFIGURATION_VARIABLES].sort());
  });

  it('reads an empty value as unset and falls back to the default', () => {
    vi.stubEnv('DATA_DIR', '');
    vi.stubEnv('JOBS_CONCURRENCY', ' ');
    vi.stubEnv('DATABASE_URL', '');
    expect(env.dataDir()).toBe('.data');
    expect(env.jobsConcurrency()).toBe(32);
    expect(env.databaseUrl()).toBeUndefined();
  });

  it('reads values when they are used, so a later change is seen', () => {
    vi.stubEnv('RATE_LIMIT_PER_MINUTE', '5');
    expect(env.rateLimitPerMinute()).toBe(5);
    vi.stubEnv('RATE_LIMIT_PER_MINUTE', '7');
    expect(env.rateLimitPerMinute()).toBe(7);
  });

  it('accepts zero only where it means something', () => {
    vi.stubEnv('SANDBOX_LATENCY_MS', '0');
    vi.stubEnv('PLATFORM_POLL_INTERVAL_MS', '0');
    expect(env.sandboxLatencyMs()).toBe(0);
    expect(env.platformPollIntervalMs()).toBe(0);
    vi.stubEnv('PLATFORM_POLL_MAX_ATTEMPTS', '0');
    expect(() => env.platformPollMaxAttempts()).toThrow('PLATFORM_POLL_MAX_ATTEMPTS must be a positive integer, got "0"');
  });

  it('checkConfiguration lists every invalid value at once', () => {
    vi.stubEnv('PORT', 'eighty');
    vi.stubEnv('DATABASE_POOL_SIZE', '2.5');
    vi.stubEnv('SANDBOX_LATENCY_MS', '-1');
    expect(() => checkConfiguration()).toThrow(
      /PORT must be a positive integer, got "eighty"[\s\S]*DATABASE_POOL_SIZE must be a positive integer, got "2.5"[\s\S]*SANDBOX_LATENCY_MS must be a non-negative integer, got "-1"/,
    );
  });

  it('checkConfiguration passes with nothing set', () => {
    for (const name of CONFIGURATION_VARIABLES) vi.stubEnv(name, undefined);
    expect(() => checkConfiguration()).not.toThrow();
  });
});
