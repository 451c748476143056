// Every value a setting offers reaches a person as words, never as its code: the compiler asks
// for a word per value of an enum given words, and this walk finds an enum given none.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PLATFORMS } from '@/server/shared/platforms';
import { PLATFORM_CATALOGUE } from '.';
import { optionsInWords, withOptionWords } from './option-words';

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

/** Every enum under `schema`, with its path. */
function enumsOf(schema: z.ZodType, path: string): [string, z.ZodType][] {
  const def = defOf(schema);
  if (def.type === 'enum') return [[path, schema]];
  if ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable') && def.innerType) return enumsOf(def.innerType, path);
  if (def.type === 'pipe' && def.in) return enumsOf(def.in, path);
  if (def.type === 'array' && def.element) return enumsOf(def.element, `${path}[]`);
  if (def.type === 'object') return Object.entries(def.shape ?? {}).flatMap(([key, s]) => enumsOf(s, path ? `${path}.${key}` : key));
  return [];
}

describe('option words', () => {
  it('are given for every value of every enum setting of every network', () => {
    const enums = PLATFORMS.flatMap((p) => enumsOf(PLATFORM_CATALOGUE[p].settings, '').map(([path, s]) => [`${p}.${path}`, s] as const));
    expect(enums.map(([path]) => path)).toEqual(
      expect.arrayContaining(['linkedin.visibility', 'youtube.privacy', 'mastodon.visibility', 'google_business.callToAction.actionType']),
    );
    for (const [path, schema] of enums) {
      const options = optionsInWords(schema);
      expect(options, `${path} has words for its values`).not.toBeNull();
      for (const { value, label } of options!) expect(label, `${path}: ${value}`).not.toBe(value);
    }
  });

  it('keep the value the API takes and show the words', () => {
    const visibility = PLATFORM_CATALOGUE.linkedin.settings.shape.visibility.unwrap();
    expect(optionsInWords(visibility)).toEqual([
      { value: 'PUBLIC', label: 'Anyone' },
      { value: 'CONNECTIONS', label: 'Connections only' },
    ]);
    expect(visibility.parse('CONNECTIONS')).toBe('CONNECTIONS');
  });

  it('stay out of the schema’s own metadata (the OpenAPI document)', () => {
    const schema = withOptionWords(z.enum(['A_B', 'C']), { A_B: 'A and B', C: 'C alone' });
    expect(z.toJSONSchema(schema)).toEqual({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string', enum: ['A_B', 'C'] });
    expect(optionsInWords(z.enum(['A_B']))).toBeNull();
  });
});
