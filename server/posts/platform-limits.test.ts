// Every network's problem with a post at once (the composer shows them together), and the
// first of them as the API's one error.
import { describe, expect, it } from 'vitest';
import { accountTextLimits, checkPlatformLimits, platformLimitProblems } from './platform-limits';

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
  it('holds a text to the lowest own limit of the targeted accounts where their server sets one', () => {
    const limits = accountTextLimits([
      { platform: 'twitter', platformData: { maxChars: 1000 } },
      { platform: 'twitter', platformData: { maxChars: 50 } },
      { platform: 'linkedin', platformData: {} },
      { platform: 'linkedin', platformData: { maxChars: 'many' } },
    ]);
    expect(limits).toEqual({ twitter: 50 });
    const [problem] = platformLimitProblems({
      platforms: ['twitter', 'linkedin'],
      content: 'x'.repeat(60),
      variants: null,
      media: [],
      accountTextLimits: limits,
    });
    expect(problem).toMatchObject({ code: 'CONTENT_TOO_LONG', field: 'content' });
    expect(problem!.message).toMatch(/server of a targeted account allows 50 characters; this text counts 60/);
    // A server's own limit above the platform's default is the one that holds.
    expect(
      platformLimitProblems({ platforms: ['twitter'], content: 'x'.repeat(400), variants: null, media: [], accountTextLimits: { twitter: 1000 } }),
    ).toEqual([]);
  });
  it('asks for the settings a network needs only with a video (a Reddit video’s poster), naming the field', () => {
    const video = { assetId: 'a', url: 'https://x.example/v.mp4', kind: 'video' as const, contentType: 'video/mp4', bytes: 1000, durationMs: 10_000 };
    const image = { ...video, url: 'https://x.example/i.png', kind: 'image' as const, contentType: 'image/png', durationMs: null };
    const reddit = { subreddit: 'coffee', title: 'New roast' };
    const [missing] = platformLimitProblems({ platforms: ['reddit'], content: 'Hi', variants: null, media: [video], settings: { reddit } });
    expect(missing).toMatchObject({ code: 'VALIDATION_FAILED', field: 'platformSettings.reddit.posterUrl' });
    expect(
      platformLimitProblems({
        platforms: ['reddit'],
        content: 'Hi',
        variants: null,
        media: [video],
        settings: { reddit: { ...reddit, posterUrl: 'https://x.example/p.png' } },
      }),
    ).toEqual([]);
    expect(platformLimitProblems({ platforms: ['reddit'], content: 'Hi', variants: null, media: [image], settings: { reddit } })).toEqual([]);
  });
});
