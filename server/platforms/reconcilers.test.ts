// Every network's reconcile class is declared (with its call and documentation page, or the
// reason it cannot be asked), a reconciler exists for exactly the networks that can be asked or
// are idempotent, and docs/reliability.md shows the same classes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '@/server/shared/platforms';
import { catalogueEntry } from './catalogue';
import { reconcileClass } from './catalogue/reconcile';
import { liveReconcilers } from './reconcilers';

const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/reliability.md'), 'utf8');

describe.each(PLATFORMS)('%s after an interrupted publish', (platform) => {
  const capability = catalogueEntry(platform).reconcile;

  it('says how it is settled: the mechanism and its page, or why it cannot be', () => {
    if ('none' in capability) expect(capability.none.length).toBeGreaterThan(20);
    else {
      expect(('ask' in capability ? capability.ask : capability.idempotent).length).toBeGreaterThan(5);
      expect(new URL(capability.docs).protocol).toBe('https:');
    }
  });

  it('has a reconciler exactly when it can be asked or is idempotent', () => {
    expect(platform in liveReconcilers).toBe(reconcileClass(capability) !== 'none');
  });

  it('is the row docs/reliability.md shows', () => {
    const row = doc.split('\n').find((line) => line.startsWith(`| ${catalogueEntry(platform).label} `));
    expect(row, `docs/reliability.md has no row for ${catalogueEntry(platform).label}`).toBeDefined();
    expect(row!.split('|')[2]!.trim()).toBe(reconcileClass(capability));
  });
});
