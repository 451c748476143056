import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlatformError, TokenExpiredError, type PublishableConnection } from '../publisher';
import { publishing } from '../testing/adapter-tests';
import { PLATFORMS } from '@/server/shared/platforms';
import { sandboxPublisher } from './sandbox-publisher';

const base: PublishableConnection = {
  id: 'c1',
  platform: 'linkedin',
  provider: 'sandbox',
  externalId: 'x',
  accountName: 'demo',
  accessToken: null,
  tokenExpiresAt: null,
  sandboxBehavior: 'ok',
};
const req = { content: 'hello', mediaUrls: [], settings: {} };
const sandbox = publishing(sandboxPublisher);

describe('sandbox publisher', () => {
  beforeEach(() => {
    vi.stubEnv('SANDBOX_LATENCY_MS', '5');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("ok accounts return a post id and a permalink to Herald's page of the demo post", async () => {
    vi.stubEnv('HERALD_BASE_URL', 'https://herald.example');
    const res = await sandbox.publish({ ...base, platform: 'twitter' }, req);
    expect(res.postedId).toMatch(/^\d+$/);
    expect(res.permalink).toBe(`https://herald.example/demo-post/twitter/${res.postedId}`);
  });

  it.each(PLATFORMS)('a demo %s permalink never leaves Herald', async (platform) => {
    vi.stubEnv('HERALD_BASE_URL', 'https://herald.example');
    const res = await sandbox.publish({ ...base, platform }, req);
    if (res.permalink === null) {
      // Only where the real network gives no link either.
      expect(platform).toBe('slack');
      return;
    }
    expect(new URL(res.permalink).origin).toBe('https://herald.example');
  });

  it('rejects_posts accounts fail with a platform error text', async () => {
    await expect(sandbox.publish({ ...base, sandboxBehavior: 'rejects_posts' }, req)).rejects.toThrow(PlatformError);
    await expect(sandbox.publish({ ...base, sandboxBehavior: 'rejects_posts' }, req)).rejects.toThrow(/DUPLICATE_POST/);
  });

  it('expired accounts are refused before publishing', async () => {
    // With a ten-minute platform latency, only a refusal before the call can finish in time.
    vi.stubEnv('SANDBOX_LATENCY_MS', '600000');
    await expect(sandbox.publish({ ...base, sandboxBehavior: 'expired' }, req)).rejects.toThrow(TokenExpiredError);
  });
});
