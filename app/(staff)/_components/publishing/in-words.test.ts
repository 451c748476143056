// Problems with a network's settings read with the composer's labels, never a request field.
import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors/app-error';
import { platformLimitProblems } from '@/server/posts/platform-limits';
import { validatePlatformSettings } from '@/server/posts/platform-settings';
import { inWords } from './in-words';

const problem = (run: () => unknown) => {
  try {
    run();
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, message: e.message, field: e.field };
  }
  throw new Error('no problem');
};

describe('inWords', () => {
  it('names a setting a network requires by its label', () => {
    const [e] = platformLimitProblems({ platforms: ['youtube'], content: 'A clip', variants: null, media: [], settings: null });
    expect(e.message).toContain('platformSettings.youtube.title');
    expect(inWords(e)).toBe('YouTube posts need “Title” (under Platform settings).');
  });

  it('says what a setting’s value must be, by its label and network', () => {
    const e = problem(() => validatePlatformSettings({ bluesky: { languages: ['English'] } }, ['bluesky']));
    expect(inWords(e)).toBe('“Languages, one per line” (Bluesky) must be a language code, e.g. en or pt-BR.');
    const url = problem(() => validatePlatformSettings({ pinterest: { link: 'not a link' } }, ['pinterest']));
    expect(inWords(url)).toMatch(/^“Link” \(Pinterest\): /);
    for (const m of [inWords(e), inWords(url)]) expect(m).not.toContain('platformSettings');
  });

  it('leaves other messages as they are', () => {
    expect(inWords({ code: 'CONTENT_TOO_LONG', message: 'X (Twitter) allows 280 characters; this text counts 300', field: 'content' })).toBe(
      'X (Twitter) allows 280 characters; this text counts 300',
    );
  });
});
