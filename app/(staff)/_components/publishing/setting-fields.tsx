'use client';
// A network's platformSettings as form fields, read from the catalogue's schema (so a network
// adds its settings in one place, server/platforms/catalogue/): enums become selects, booleans
// checkboxes, numbers number inputs, lists of words one per line, a nested object (a Google
// Business event or offer) a small group of its own, and the rest text. The schema's own
// descriptions are the help under each field, an enum's values show the catalogue's words for
// them (option-words.ts), and a default the schema states (its `default`, also the OpenAPI
// document's) is what an untouched field means: a yes/no setting whose default is yes starts
// ticked. Conversions both ways live here too: the form holds strings, the API takes the
// schema's types.
import type { FieldPath, FieldValues, UseFormRegister } from 'react-hook-form';
import type { z } from 'zod';
import { FieldError, Input, Label, Select } from '@/app/_ui/primitives';
import { PLATFORM_CATALOGUE } from '@/server/platforms/catalogue';
import { optionsInWords } from '@/server/platforms/catalogue/option-words';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';

type Kind = 'enum' | 'boolean' | 'number' | 'list' | 'group' | 'text';
export interface SettingField {
  key: string;
  label: string;
  help: string | null;
  kind: Kind;
  /** An enum's values (what is sent) and their words (what is shown). */
  options?: { value: string; label: string }[];
  /** What the network does when the setting is left out, where the schema says. */
  default?: unknown;
  fields?: SettingField[];
}

/** Words members use; anything not listed is the key in plain words ("madeForKids" → "Made for kids"). */
const LABELS: Record<string, string> = {
  firstComment: 'First comment',
  videoType: 'Video type',
  shareToFeed: 'Also share the reel to the feed',
  coverUrl: 'Cover image URL',
  coverImageUrl: 'Cover image URL',
  replyTo: 'Reply to post id',
  quoteTweet: 'Quote post id',
  boardId: 'Board id',
  altText: 'Image description (alt text)',
  altTexts: 'Media descriptions (alt text), one per line',
  spoilerText: 'Content warning',
  sensitive: 'Hide media behind a warning',
  username: 'Post under the name',
  embed: 'Card',
  description: 'Description',
  color: 'Colour',
  posterUrl: 'Poster image URL',
  privacy: 'Who can watch',
  visibility: 'Who sees it',
  startDate: 'First day',
  startTime: 'Start time',
  endDate: 'Last day',
  endTime: 'End time',
  categoryId: 'Category number',
  short: 'Link as a Short',
  topicType: 'Post type',
  callToAction: 'Button',
  actionType: 'What it says',
  url: 'Link',
  nsfw: 'NSFW',
  flairId: 'Flair id',
  tags: 'Tags, one per line',
  languages: 'Languages, one per line',
  threadName: 'Forum post title',
  suppressEmbeds: 'No link previews',
  silent: 'Send silently',
  protectContent: 'Protect from forwarding',
  disableLinkPreview: 'No link preview',
  linkCard: 'Show a card for the first link',
  redeemOnlineUrl: 'Redeem online at',
  termsConditions: 'Terms',
  couponCode: 'Coupon code',
  languageCode: 'Language',
};

const words = (key: string) =>
  key
    .replace(/([A-Z])/g, ' $1')
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/ (\w)/g, (_m, c: string) => ` ${c.toLowerCase()}`);

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 5; i++) {
    const def = defOf(s);
    if ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable') && def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else break;
  }
  return s;
}

function fieldOf(key: string, schema: z.ZodType, depth: number): SettingField {
  const inner = unwrap(schema);
  const def = defOf(inner);
  const help = (schema as { description?: string }).description ?? (inner as { description?: string }).description ?? null;
  const stated = schema.meta()?.default;
  const base = { key, label: LABELS[key] ?? words(key), help, ...(stated === undefined ? {} : { default: stated }) };
  if (def.type === 'enum') {
    const values = (inner as unknown as z.ZodEnum).options as string[];
    return { ...base, kind: 'enum', options: optionsInWords(inner) ?? values.map((value) => ({ value, label: value })) };
  }
  if (def.type === 'boolean') return { ...base, kind: 'boolean' };
  if (def.type === 'number') return { ...base, kind: 'number' };
  if (def.type === 'array') return { ...base, kind: 'list' };
  if (def.type === 'object' && depth === 0) {
    const shape = (inner as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
    return { ...base, kind: 'group', fields: Object.entries(shape).map(([k, s]) => fieldOf(k, s, depth + 1)) };
  }
  return { ...base, kind: 'text' };
}

export function settingFields(platform: Platform): SettingField[] {
  const shape = PLATFORM_CATALOGUE[platform].settings.shape as Record<string, z.ZodType>;
  return Object.entries(shape).map(([key, schema]) => fieldOf(key, schema, 0));
}

function valueInWords(f: SettingField, value: unknown): string {
  if (f.kind === 'enum') return f.options?.find((o) => o.value === value)?.label ?? String(value);
  if (f.kind === 'boolean') return value ? 'yes' : 'no';
  if (f.kind === 'list' && Array.isArray(value)) return value.join(', ');
  if (f.kind === 'group' && value && typeof value === 'object') return `(${wordsOf(f.fields ?? [], value as Record<string, unknown>)})`;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function wordsOf(fields: SettingField[], stored: Record<string, unknown>): string {
  const known = new Map(fields.map((f) => [f.key, f]));
  return Object.entries(stored)
    .map(([key, value]) => {
      const f = known.get(key);
      return f ? `${f.label}: ${valueInWords(f, value)}` : `${key}: ${JSON.stringify(value)}`;
    })
    .join(', ');
}

/** One network's settings as a person reads them, with the composer's labels and words ("Who sees it: Connections only"). */
export function settingsInWords(platform: Platform, stored: Record<string, unknown>): string {
  return wordsOf(settingFields(platform), stored);
}

function fromForm(fields: SettingField[], raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const value = raw[f.key];
    // A box left ticked where yes is the default says nothing; unticked, it says no.
    if (f.kind === 'boolean' && f.default === true) {
      if (value === false) out[f.key] = false;
      continue;
    }
    if (value === undefined || value === null || value === '' || value === false) continue;
    if (f.kind === 'list') {
      const items = String(value)
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean);
      if (items.length) out[f.key] = items;
    } else if (f.kind === 'number') {
      const n = Number(value);
      out[f.key] = Number.isFinite(n) ? n : value;
    } else if (f.kind === 'group') {
      const nested = fromForm(f.fields ?? [], (value ?? {}) as Record<string, unknown>);
      if (Object.keys(nested).length) out[f.key] = nested;
    } else out[f.key] = value;
  }
  return out;
}

/** The API's platformSettings of one network from the form's strings (empty fields left out). */
export function settingsFromForm(platform: Platform, raw: Record<string, unknown>): Record<string, unknown> {
  return fromForm(settingFields(platform), raw);
}

function toForm(fields: SettingField[], stored: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const value = stored[f.key];
    if (value === undefined) {
      // The box shows what the network will do: ticked where yes is the default.
      if (f.kind === 'boolean' && f.default === true) out[f.key] = true;
      continue;
    }
    if (f.kind === 'list' && Array.isArray(value)) out[f.key] = value.join('\n');
    else if (f.kind === 'group' && value && typeof value === 'object') out[f.key] = toForm(f.fields ?? [], value as Record<string, unknown>);
    else out[f.key] = value;
  }
  return out;
}

/**
 * A stored post's platformSettings as the form holds them, every network included (a network
 * picked later starts from its defaults too).
 */
export function settingsToForm(stored: Record<string, Record<string, unknown>> | null | undefined): Record<string, Record<string, unknown>> {
  const all: Record<string, Record<string, unknown>> = { ...Object.fromEntries(PLATFORMS.map((p) => [p, {}])), ...stored };
  const out = Object.entries(all).map(([p, s]) => [p, p in PLATFORM_CATALOGUE ? toForm(settingFields(p as Platform), s) : s] as const);
  return Object.fromEntries(out.filter(([, s]) => Object.keys(s).length > 0));
}

/** The select's empty choice: the network's default, named where the schema states it. */
function unsetLabel(field: SettingField): string {
  const named = field.options?.find((o) => o.value === field.default)?.label;
  return named ? `Default (${named})` : 'Default';
}

/** One field (or a group of them), registered at `name`. */
export function SettingInput<T extends FieldValues>({
  field,
  name,
  id,
  register,
  error,
}: {
  field: SettingField;
  name: string;
  id: string;
  register: UseFormRegister<T>;
  error: (path: string) => string | undefined;
}) {
  const path = name as FieldPath<T>;
  const message = error(name);
  const help = field.help ? (
    <p id={`${id}-help`} className="mt-1 text-xs text-slate-600">
      {field.help}
    </p>
  ) : null;
  const described = field.help ? `${id}-help` : undefined;
  if (field.kind === 'group') {
    return (
      <fieldset className="rounded-md border border-slate-200 p-2 sm:col-span-2">
        <legend className="px-1 text-sm font-medium">{field.label}</legend>
        {help}
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          {(field.fields ?? []).map((f) => (
            <SettingInput key={f.key} field={f} name={`${name}.${f.key}`} id={`${id}-${f.key}`} register={register} error={error} />
          ))}
        </div>
        <FieldError>{message}</FieldError>
      </fieldset>
    );
  }
  if (field.kind === 'boolean') {
    return (
      <div>
        <label className="flex items-center gap-2 text-sm" htmlFor={id}>
          <input id={id} type="checkbox" aria-describedby={described} {...register(path)} />
          {field.label}
        </label>
        {help}
        <FieldError>{message}</FieldError>
      </div>
    );
  }
  return (
    <div className={field.kind === 'list' || field.key === 'firstComment' ? 'sm:col-span-2' : ''}>
      <Label htmlFor={id}>{field.label}</Label>
      {field.kind === 'enum' ? (
        <Select id={id} aria-describedby={described} {...register(path)}>
          <option value="">{unsetLabel(field)}</option>
          {field.options!.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      ) : field.kind === 'list' ? (
        <textarea
          id={id}
          rows={2}
          aria-invalid={!!message}
          aria-describedby={described}
          className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
          {...register(path)}
        />
      ) : (
        <Input id={id} type={field.kind === 'number' ? 'number' : 'text'} aria-invalid={!!message} aria-describedby={described} {...register(path)} />
      )}
      {help}
      <FieldError>{message}</FieldError>
    </div>
  );
}
