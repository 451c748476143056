// Every network's problem with a post at once (the composer shows them together), and the
// first of them as the API's one error.
import { describe, expect, it } from 'vitest';
import { checkPlatformLimits, platformLimitProblems } from './platform-limits';

describe('platformLimitProblems', () => {
  const long = 'Long story about our bakery. '.repeat(12);
  it('lists one problem per network that refuses the post, each with its field', () => {
    const problems = platformLimitProblems({ platforms: ['linkedin', 'twitter', 'instagram'], content: long, variants: null, media: [] });
    expect(problems.map((p) => [p.code, p.field])).toEqual([
      ['CONTENT_TOO_LONG', 'content'],
      ['MEDIA_REQUIRED', 'mediaIds'],
    ]);
    expect(problems[0]!.message).toMatch(/^X \(Twitter\) allows 280 characters/);
  });
  it('names the variant field when the network has its own text', () => {
    const problems = platformLimitProblems({ platforms: ['twitter'], content: 'short', variants: { twitter: { content: long } }, media: [] });
    expect(problems.map((p) => p.field)).toEqual(['variants.twitter.content']);
  });
  it('is empty for a post every network accepts; checkPlatformLimits throws the first problem', () => {
    expect(platformLimitProblems({ platforms: ['linkedin', 'twitter'], content: 'Hello', variants: null, media: [] })).toEqual([]);
    expect(() => checkPlatformLimits({ platforms: ['instagram', 'twitter'], content: long, variants: null, media: [] })).toThrow(/Instagram posts need/);
  });
});
