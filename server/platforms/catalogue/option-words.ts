// What a person reads for each value of a setting that takes one of a few values: LinkedIn's
// CONNECTIONS is "Connections only", Google's LEARN_MORE "Learn more". The words are given
// where each enum is defined in the catalogue (withOptionWords), and the compiler asks for a
// word for every value, so a new value cannot reach a screen as its code. The value stays what
// the API takes, stores and sends on; only what is shown changes. The words live in a registry
// of their own, not in the schema's metadata, so the OpenAPI document is left as it was.
import { z } from 'zod';

const registry = z.registry<{ words: Readonly<Record<string, string>> }>();

/** `schema` with the words a person reads for each of its values. */
export function withOptionWords<T extends z.ZodEnum>(schema: T, words: { readonly [V in z.output<T>]: string }): T {
  const meta: { words: Readonly<Record<string, string>> } = { words };
  registry.add(schema as z.ZodType, meta);
  return schema;
}

/** The enum's values with their words, in the enum's order; null for a schema given none. */
export function optionsInWords(schema: z.ZodType): { value: string; label: string }[] | null {
  const words = registry.get(schema)?.words;
  if (!words) return null;
  return ((schema as z.ZodEnum).options as string[]).map((value) => ({ value, label: words[value] ?? value }));
}
