import { describe, expect, it } from 'vitest';
import { graphemeLength, mastodonLength, threadsLength, twitterWeightedLength, utf16Length, utf8ByteLength } from './text-length';

describe('platform text length', () => {
  it('weighs X text like twitter-text: URLs 23, emoji 2, CJK 2, Latin 1', () => {
    expect(twitterWeightedLength('hello')).toBe(5);
    expect(twitterWeightedLength('see https://example.com/a/very/long/path?with=query')).toBe(4 + 23);
    expect(twitterWeightedLength('日本語')).toBe(6);
    expect(twitterWeightedLength('👍')).toBe(2);
    expect(twitterWeightedLength('👨‍👩‍👧‍👦')).toBe(2); // one family emoji sequence
    expect(twitterWeightedLength('🇫🇷')).toBe(2);
    expect(twitterWeightedLength('é')).toBe(1);
    expect(twitterWeightedLength('e\u0301')).toBe(1); // NFC: é
  });

  it('counts Threads emoji by their UTF-8 bytes', () => {
    expect(threadsLength('hi')).toBe(2);
    expect(threadsLength('hi 👍')).toBe(3 + 4);
  });

  it('counts TikTok text in UTF-16 units', () => {
    expect(utf16Length('hi 👍')).toBe(5);
  });

  it('counts YouTube descriptions in UTF-8 bytes', () => {
    expect(utf8ByteLength('hi')).toBe(2);
    expect(utf8ByteLength('café')).toBe(5);
    expect(utf8ByteLength('hi 👍')).toBe(7);
  });

  it('counts Mastodon text like its validator: URLs 23, remote mentions by their local part, graphemes', () => {
    expect(mastodonLength('hello')).toBe(5);
    expect(mastodonLength('see https://example.com/a/very/long/path?with=query')).toBe(4 + 23);
    expect(mastodonLength('hi @alice@mastodon.social')).toBe(3 + 6);
    expect(mastodonLength('mail me: bob@example.com')).toBe(24);
    expect(mastodonLength('👨‍👩‍👧‍👦 🇫🇷')).toBe(3);
  });

  it('counts graphemes for Bluesky', () => {
    expect(graphemeLength('hi 👍')).toBe(4);
    expect(graphemeLength('👨‍👩‍👧‍👦')).toBe(1);
    expect(graphemeLength('e\u0301')).toBe(1);
  });
});
