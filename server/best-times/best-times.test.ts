// GET /best-times: suggestions from the workspace's own history in its time zone, by
// engagement or by publish outcomes, and labelled platform defaults when history is short.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { addDays, dayIn } from '@/server/shared/analytics-window';
import { MIN_SAMPLE, nextOccurrence, zonedTimeToInstant } from './best-times';
import { PLATFORM_DEFAULT_SLOTS } from './defaults';

const api = usePublicApi();

/** The most recent date (at least a day ago) falling on `isoWeekday` in `timeZone`. */
function lastWeekday(isoWeekday: number, timeZone: string): string {
  let day = addDays(dayIn(timeZone, new Date()), -1);
  for (;;) {
    const d = new Date(`${day}T00:00:00Z`).getUTCDay() || 7;
    if (d === isoWeekday) return day;
    day = addDays(day, -1);
  }
}

async function deliveries(
  workspaceId: string,
  opts: {
    platform?: string;
    isoWeekday: number;
    hour: number;
    timeZone: string;
    count: number;
    status?: 'published' | 'failed';
    engagement?: (i: number) => number | null;
  },
) {
  const connection = await createSandboxConnection(workspaceId, { platform: opts.platform ?? 'linkedin' });
  const base = lastWeekday(opts.isoWeekday, opts.timeZone);
  for (let i = 0; i < opts.count; i++) {
    const at = zonedTimeToInstant(addDays(base, -7 * (i % 10)), opts.hour, opts.timeZone);
    const status = opts.status ?? 'published';
    await db.post.create({
      data: {
        workspaceId,
        content: `post ${i}`,
        platforms: [connection.platform],
        connectionIds: [connection.id],
        status,
        scheduledAt: at,
        publishedAt: status === 'published' ? at : null,
        targets: {
          create: {
            connectionId: connection.id,
            platform: connection.platform,
            status,
            publishedAt: status === 'published' ? at : null,
            attemptStartedAt: at,
            engagement: opts.engagement?.(i) ?? null,
            error: status === 'failed' ? 'rejected' : null,
          },
        },
      },
    });
  }
}

async function workspace(timeZone = 'America/New_York') {
  const w = await createWorkspaceWithKey();
  await db.workspace.update({ where: { id: w.workspace.id }, data: { timeZone } });
  return w;
}

describe('GET /best-times', () => {
  it('says when history is too short and falls back to the documented defaults, labelled so', async () => {
    const w = await workspace('Europe/Berlin');
    await deliveries(w.workspace.id, { isoWeekday: 2, hour: 14, timeZone: 'Europe/Berlin', count: MIN_SAMPLE - 1 });
    const res = await api('GET', '/best-times?platform=linkedin', { key: w.secret });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ platform: 'linkedin', timeZone: 'Europe/Berlin', insufficientHistory: true });
    expect(res.body.data.inputs).toMatchObject({ method: 'platform_defaults', sampleSize: MIN_SAMPLE - 1, minimumSample: MIN_SAMPLE, window: { days: 90 } });
    expect(res.body.provenance).toEqual({ source: 'platform_defaults', label: expect.stringContaining('defaults'), collectedAt: null });
    const defaults = PLATFORM_DEFAULT_SLOTS.linkedin;
    expect(res.body.data.slots.map((s) => [s.rank, s.hour, s.basis, s.score, s.sampleSize])).toEqual(
      defaults.map((d, i) => [i + 1, d.hour, 'platform_defaults', null, 0]),
    );
    for (const s of res.body.data.slots) {
      expect(Date.parse(s.startsAt)).toBeGreaterThan(Date.now());
      expect(Date.parse(s.startsAt) - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
      expect(s.localTime.endsWith(`T${String(s.hour).padStart(2, '0')}:00`)).toBe(true);
    }
  });

  it('ranks weekday-hours by publish outcomes when no engagement is reported', async () => {
    const tz = 'America/New_York';
    const w = await workspace(tz);
    await deliveries(w.workspace.id, { isoWeekday: 2, hour: 14, timeZone: tz, count: 12 });
    await deliveries(w.workspace.id, { isoWeekday: 1, hour: 9, timeZone: tz, count: 6 });
    await deliveries(w.workspace.id, { isoWeekday: 1, hour: 9, timeZone: tz, count: 6, status: 'failed' });
    const res = await api('GET', '/best-times', { key: w.secret });
    expect(res.body.data.insufficientHistory).toBe(false);
    expect(res.body.data.inputs).toMatchObject({ method: 'publish_outcomes', sampleSize: 24, withEngagement: 0 });
    expect(res.body.data.slots.map((s) => [s.dayOfWeek, s.hour, s.score, s.sampleSize])).toEqual([
      ['tuesday', 14, 1, 12],
      ['monday', 9, 0.5, 12],
    ]);
    const top = res.body.data.slots[0]!;
    // 14:00 in New York, as an instant.
    expect(new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: 'numeric', hourCycle: 'h23', weekday: 'long' }).format(new Date(top.startsAt))).toBe(
      'Tuesday, 14',
    );
    expect(res.body.provenance.source).toBe('publish_history');
    expect(res.body.provenance.collectedAt).not.toBeNull();
  });

  it('ranks by engagement where the platform reported it, per platform', async () => {
    const tz = 'UTC';
    const w = await workspace(tz);
    await deliveries(w.workspace.id, { platform: 'instagram', isoWeekday: 4, hour: 18, timeZone: tz, count: 10, engagement: (i) => 200 + i });
    await deliveries(w.workspace.id, { platform: 'instagram', isoWeekday: 2, hour: 8, timeZone: tz, count: 10, engagement: () => 40 });
    await deliveries(w.workspace.id, { platform: 'instagram', isoWeekday: 5, hour: 12, timeZone: tz, count: 5, engagement: () => null });
    await deliveries(w.workspace.id, { platform: 'linkedin', isoWeekday: 1, hour: 7, timeZone: tz, count: 30, engagement: () => 9999 });
    const res = await api('GET', '/best-times?platform=instagram', { key: w.secret });
    expect(res.body.data.inputs).toMatchObject({ method: 'engagement', sampleSize: 25, withEngagement: 20 });
    expect(res.body.data.slots.map((s) => [s.dayOfWeek, s.hour, s.score])).toEqual([
      ['thursday', 18, 204.5],
      ['tuesday', 8, 40],
    ]);
    // Another workspace's history never counts.
    const other = await workspace(tz);
    expect((await api('GET', '/best-times?platform=instagram', { key: other.secret })).body.data.insufficientHistory).toBe(true);
  });

  it.each(['tiktok', 'threads', 'Instagram', ''])('refuses platform=%s with VALIDATION_FAILED', async (platform) => {
    const w = await workspace();
    const res = await api('GET', `/best-times?platform=${platform}`, { key: w.secret });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'platform' });
  });
});

describe('slot arithmetic', () => {
  it('finds the next occurrence across a daylight-saving change', () => {
    // Sunday 2026-03-08 02:00 does not exist in New York; the Monday after is 13:00 UTC.
    const now = new Date('2026-03-07T12:00:00Z'); // a Saturday
    expect(nextOccurrence(1, 9, 'America/New_York', now)).toEqual({ startsAt: new Date('2026-03-09T13:00:00Z'), localTime: '2026-03-09T09:00' });
    expect(nextOccurrence(6, 9, 'America/New_York', now).localTime).toBe('2026-03-07T09:00'); // 07:00 local now: today 09:00 is later
    expect(nextOccurrence(6, 6, 'America/New_York', now).localTime).toBe('2026-03-14T06:00'); // already past today
    expect(zonedTimeToInstant('2026-07-01', 9, 'Europe/Berlin').toISOString()).toBe('2026-07-01T07:00:00.000Z');
  });
});
