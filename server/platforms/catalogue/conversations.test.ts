// The direct-message and review capabilities of every network: each offered call names the
// network's call and an https documentation page, each refusal says why, nothing is offered on
// what cannot be read, and docs/inbox.md's two tables say the same, row for row.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '@/server/shared/platforms';
import { catalogueEntry, messagesOf, reviewsOf } from '.';
import { offered } from './conversations';

const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/inbox.md'), 'utf8');

/** The rows of the table under a heading, by their first cell. */
function tableUnder(heading: string): Map<string, string[]> {
  const section = doc.split(`\n## ${heading}\n`)[1]?.split('\n## ')[0] ?? '';
  const rows = section.split('\n').filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l));
  return new Map(
    rows.slice(1).map((r) => {
      const cells = r
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      return [cells[0]!, cells.slice(1)];
    }),
  );
}

const described = (capability: object) => {
  if (offered(capability as never)) {
    const c = capability as { call: string; docs: string };
    expect(c.call.length).toBeGreaterThan(3);
    expect(new URL(c.docs).protocol).toBe('https:');
  } else {
    expect((capability as { none: string }).none.length).toBeGreaterThan(10);
  }
};

const yes = (c: object) => (offered(c as never) ? 'yes' : 'no');
const messagesTable = tableUnder('Direct messages per network');
const reviewsTable = tableUnder('Reviews per network');

describe.each(PLATFORMS)('%s messages and reviews', (platform) => {
  const label = catalogueEntry(platform).label;
  const messages = messagesOf(platform);
  const reviews = reviewsOf(platform);

  it('declares each capability: the call and its documentation page, or why not', () => {
    for (const c of [messages.read, messages.reply, messages.push, reviews.read, reviews.reply, reviews.editReply, reviews.deleteReply, reviews.push])
      described(c);
  });

  it('offers nothing on what it cannot read', () => {
    if (!offered(messages.read)) expect([messages.reply, messages.push].filter((c) => offered(c))).toEqual([]);
    if (!offered(reviews.read)) expect([reviews.reply, reviews.editReply, reviews.deleteReply, reviews.push].filter((c) => offered(c))).toEqual([]);
  });

  it('is the row docs/inbox.md shows in each table', () => {
    const reply = messages.reply;
    expect(messagesTable.get(label), `docs/inbox.md: ${label} in Direct messages per network`).toEqual([
      yes(messages.read),
      yes(reply),
      offered(reply) && reply.images ? 'yes' : 'no',
      offered(reply) && reply.windowHours ? `${reply.windowHours} h` : '—',
      yes(messages.push),
    ]);
    expect(reviewsTable.get(label), `docs/inbox.md: ${label} in Reviews per network`).toEqual([
      offered(reviews.read) ? reviews.scale : '—',
      yes(reviews.read),
      yes(reviews.reply),
      yes(reviews.editReply),
      yes(reviews.deleteReply),
      yes(reviews.push),
    ]);
  });
});
