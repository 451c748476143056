// One way to write a moment for people: the pattern in the zone, and the zone named.
import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, formatInZone, timeZoneNames, zoneLabel } from './time-zone';

describe('formatInZone', () => {
  const at = '2026-12-03T09:15:00.000Z';
  it('writes the moment in the zone and names it when a time of day shows', () => {
    expect(formatInZone(at, 'Asia/Kolkata')).toBe('Thu 3 Dec 2026, 14:45 GMT+5:30');
    expect(formatInZone(at, 'UTC')).toBe('Thu 3 Dec 2026, 09:15 UTC');
    expect(formatInZone(at, 'Europe/Berlin')).toBe('Thu 3 Dec 2026, 10:15 CET');
    expect(formatInZone('2026-07-03T09:15:00.000Z', 'Europe/Berlin')).toBe('Fri 3 Jul 2026, 11:15 CEST');
  });
  it('leaves the zone off a date alone, or when asked (a grid labelled with it)', () => {
    expect(formatInZone(at, 'Asia/Kolkata', 'd MMM yyyy')).toBe('3 Dec 2026');
    expect(formatInZone(at, 'Asia/Kolkata', 'HH:mm', { zone: false })).toBe('14:45');
    expect(formatInZone(at, 'Asia/Kolkata', "'at' d MMM")).toBe('at 3 Dec');
  });
  it('labels zones as people read them', () => {
    expect(zoneLabel(new Date(at), 'America/New_York')).toBe('GMT-5');
  });
});

describe('zone names', () => {
  it('are spelled one way, the current IANA one', () => {
    expect(canonicalTimeZone('asia/calcutta')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    const names = timeZoneNames();
    expect(names[0]).toBe('UTC');
    expect(names).toContain('Asia/Kolkata');
    expect(names).not.toContain('Asia/Calcutta');
  });
});
