// The comment capabilities of every network: complete, each offered action naming the
// network's call and an https documentation page, nothing offered on a network whose comments
// cannot be read, and docs/inbox.md saying the same.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '@/server/shared/platforms';
import { catalogueEntry } from '.';
import { COMMENT_ACTIONS, offeredCommentActions } from './comments';

const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/inbox.md'), 'utf8');

describe.each(PLATFORMS)('%s comments', (platform) => {
  const entry = catalogueEntry(platform);

  it('declares every action: the call and its documentation page, or why not', () => {
    expect(Object.keys(entry.comments).sort()).toEqual([...COMMENT_ACTIONS].sort());
    for (const action of COMMENT_ACTIONS) {
      const capability = entry.comments[action];
      if ('call' in capability) {
        expect(capability.call.length, action).toBeGreaterThan(3);
        expect(new URL(capability.docs).protocol, action).toBe('https:');
      } else {
        expect(capability.none.length, action).toBeGreaterThan(10);
      }
    }
  });

  it('offers nothing on comments it cannot read', () => {
    if ('none' in entry.comments.read) expect(offeredCommentActions(entry.comments)).toEqual([]);
  });

  it('is the row docs/inbox.md shows', () => {
    const cells = COMMENT_ACTIONS.map((a) => ('call' in entry.comments[a] ? 'yes' : 'no'));
    const row = doc.split('\n').find((line) => line.startsWith(`| ${entry.label} `));
    expect(row, `docs/inbox.md has no row for ${entry.label}`).toBeDefined();
    expect(
      row!
        .split('|')
        .slice(2, -1)
        .map((c) => c.trim()),
    ).toEqual(cells);
  });
});
