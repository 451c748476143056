// Text read from a network made storable: NUL dropped, a lone surrogate U+FFFD, a pair kept,
// and an item with nothing to change returned as it is (the webhook's hot path allocates nothing).
import { describe, expect, it } from 'vitest';
import { storableStrings, toStorableText } from '@/server/shared/schemas';

describe('storable text from a network', () => {
  it('drops NUL and replaces an unpaired surrogate, keeping a whole pair', () => {
    expect(toStorableText('a\u0000b')).toBe('ab');
    expect(toStorableText('x\uD83D')).toBe('x\uFFFD');
    expect(toStorableText('\uDC00y')).toBe('\uFFFDy');
    expect(toStorableText('ok 😀')).toBe('ok 😀');
  });

  it('cleans every string of an item, nested ones too, and leaves the rest as it was', () => {
    const at = new Date('2026-12-07T10:00:00Z');
    const review = { id: 'r1', text: 'Gre\u0000at', createdAt: at, rating: 5, reply: { id: 'a1', text: 'Thanks\uD800' }, tags: ['x\u0000'] };
    const clean = storableStrings(review);
    expect(clean).toEqual({ id: 'r1', text: 'Great', createdAt: at, rating: 5, reply: { id: 'a1', text: 'Thanks\uFFFD' }, tags: ['x'] });
    expect(clean.createdAt).toBe(at);
    expect(review.text).toBe('Gre\u0000at');
    const fine = { id: 'm1', text: 'Hello', reply: { text: 'Hi' } };
    expect(storableStrings(fine)).toBe(fine);
  });
});
