// The self-hosted files (Dockerfile, compose.yaml) cannot be built on every machine that runs
// the tests, so they are checked here against what the code expects: every variable they set
// is one Herald reads, the secrets every instance must share are set, the image runs the
// standalone server as an unprivileged user with a health check, and migrations run once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIGURATION_VARIABLES } from '@/server/config/env';
import { ROOT } from './prepare';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('self-hosted deployment files', () => {
  const compose = parse(read('compose.yaml')) as {
    services: Record<
      string,
      { environment?: Record<string, string>; depends_on?: Record<string, { condition: string }>; build?: { target: string }; deploy?: { replicas: number } }
    >;
  };

  it('compose sets only variables Herald reads, and the secrets every instance must share', () => {
    const env = compose.services.app!.environment!;
    for (const name of Object.keys(env)) expect(CONFIGURATION_VARIABLES as readonly string[], name).toContain(name);
    for (const shared of ['DATABASE_URL', 'HERALD_BASE_URL', 'AUTH_SECRET', 'WEBHOOK_SECRET_KEY', 'MEDIA_SIGNING_SECRET'])
      expect(env[shared], shared).toBeTruthy();
    expect(compose.services.migrate!.environment).toEqual(env);
  });

  it('compose runs the migration once before several app instances, behind a proxy', () => {
    expect(compose.services.migrate!.build!.target).toBe('migrate');
    expect(compose.services.app!.build!.target).toBe('app');
    expect(compose.services.app!.depends_on!.migrate!.condition).toBe('service_completed_successfully');
    expect(compose.services.app!.deploy!.replicas).toBeGreaterThanOrEqual(2);
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'proxy']));
  });

  it('the proxy compresses, since the app does not (and leaves the event stream alone)', async () => {
    const nginx = (parse(read('compose.yaml')) as { configs: { nginx: { content: string } } }).configs.nginx.content;
    expect(nginx).toMatch(/^\s*gzip on;/m);
    expect(nginx).toMatch(/gzip_types[^;]*application\/json/);
    expect(nginx).not.toMatch(/gzip_types[^;]*text\/event-stream/);
    const nextConfig = ((await import(path.join(ROOT, 'next.config.mjs'))) as { default: { compress?: boolean } }).default;
    expect(nextConfig.compress).toBe(false);
  });

  it('the image runs the standalone build as a non-root user with a health check', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/HERALD_STANDALONE=1 node node_modules\/next\/dist\/bin\/next build/);
    expect(dockerfile).toMatch(/^FROM .* AS migrate$/m);
    expect(dockerfile).toMatch(/^CMD \["npm", "run", "db:deploy"\]$/m);
    const app = dockerfile.slice(dockerfile.indexOf('AS app'));
    expect(app).toMatch(/^USER herald$/m);
    expect(app).toMatch(/HEALTHCHECK[\s\S]*\/api\/health/);
    // Herald's own server entry (the API on its fast path), copied in beside the standalone output.
    expect(app).toMatch(/^CMD \["node", "--max-http-header-size=16384", "server\/runtime\/serve.mjs", "--max-header-size=16384"\]$/m);
    expect(app).toMatch(/^COPY .*\/app\/server\/runtime\/serve\.mjs \/app\/server\/runtime\/http-server\.mjs \.\/server\/runtime\/$/m);
    expect(read('next.config.mjs')).toMatch(/HERALD_STANDALONE === '1' \? \{ output: 'standalone' \}/);
  });
});
