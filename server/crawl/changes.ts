// Change detection between two consecutive successful visits of a page: which fields differ,
// before and after, and a word-level diff summary of the main text (the `diff` library).
import { diffWords, type ChangeObject } from 'diff';
import type { Extracted, Heading } from './extract';

export const TRACKED_FIELDS = ['title', 'metaDescription', 'canonical', 'headings', 'text'] as const;
export type TrackedField = (typeof TRACKED_FIELDS)[number];

/** The text kept in `changes.text.before/after`: the diff summary carries the detail. */
const TEXT_EXCERPT_CHARS = 500;
const MAX_EXCERPTS = 10;
const EXCERPT_CHARS = 200;
/** Past this many edits the word diff gives up and the summary says so. */
/** Past this many edits a word diff gives up (`truncated`); the app stops at the same point. */
export const MAX_EDIT_LENGTH = 20_000;

export interface DiffSummary {
  addedWords: number;
  removedWords: number;
  unchangedWords: number;
  /** Share of the words of both versions that changed, 0–1. */
  changeRatio: number;
  /** The first added and removed passages, in page order. */
  excerpts: { type: 'added' | 'removed'; text: string }[];
  /** True when the texts differed too much to diff word by word (counts are then whole texts). */
  truncated: boolean;
}

export interface DetectedChange {
  fields: TrackedField[];
  changes: Partial<Record<TrackedField, { before: unknown; after: unknown }>>;
  diffSummary: DiffSummary;
}

const words = (s: string | null) => (s ? s.split(/\s+/).filter(Boolean).length : 0);
const sameHeadings = (a: Heading[], b: Heading[]) => a.length === b.length && a.every((h, i) => h.level === b[i]!.level && h.text === b[i]!.text);

export function summariseTextDiff(before: string | null, after: string | null): DiffSummary {
  const parts: ChangeObject<string>[] | undefined = diffWords(before ?? '', after ?? '', { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) {
    const removed = words(before);
    const added = words(after);
    return { addedWords: added, removedWords: removed, unchangedWords: 0, changeRatio: 1, excerpts: [], truncated: true };
  }
  let added = 0;
  let removed = 0;
  let unchanged = 0;
  const excerpts: DiffSummary['excerpts'] = [];
  for (const part of parts) {
    const n = words(part.value);
    if (part.added) added += n;
    else if (part.removed) removed += n;
    else unchanged += n;
    if ((part.added || part.removed) && n > 0 && excerpts.length < MAX_EXCERPTS) {
      excerpts.push({ type: part.added ? 'added' : 'removed', text: part.value.trim().slice(0, EXCERPT_CHARS) });
    }
  }
  const total = added + removed + unchanged;
  return {
    addedWords: added,
    removedWords: removed,
    unchangedWords: unchanged,
    changeRatio: total ? Number(((added + removed) / total).toFixed(4)) : 0,
    excerpts,
    truncated: false,
  };
}

/** null when nothing tracked differs. */
export function detectChange(before: Extracted, after: Extracted): DetectedChange | null {
  const fields: TrackedField[] = [];
  const changes: DetectedChange['changes'] = {};
  for (const field of ['title', 'metaDescription', 'canonical'] as const) {
    if (before[field] !== after[field]) {
      fields.push(field);
      changes[field] = { before: before[field], after: after[field] };
    }
  }
  if (!sameHeadings(before.headings, after.headings)) {
    fields.push('headings');
    changes.headings = { before: before.headings, after: after.headings };
  }
  if (before.text !== after.text) {
    fields.push('text');
    changes.text = { before: before.text?.slice(0, TEXT_EXCERPT_CHARS) ?? null, after: after.text?.slice(0, TEXT_EXCERPT_CHARS) ?? null };
  }
  if (fields.length === 0) return null;
  const diffSummary = fields.includes('text')
    ? summariseTextDiff(before.text, after.text)
    : { addedWords: 0, removedWords: 0, unchangedWords: words(after.text), changeRatio: 0, excerpts: [], truncated: false };
  return { fields, changes, diffSummary };
}
