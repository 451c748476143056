// Importing posts from a CSV or JSON file (POST /posts/import/preview, POST /posts/import).
// Every row is checked with the rule functions of POST /posts (the same functions, called one
// by one so that a row's problems are all reported at once, each at its column), then the
// whole file is written in one transaction or not at all. Each row carries a key (its `id`
// column, or its content) stored on the post, unique per workspace: uploading the same file
// again creates nothing new and reports those rows as already imported.
//
// Media by URL (docs/decisions.md → Post import): the preview checks the URLs' form and
// counts them toward the media rules by their file extension; fetching them (through the
// outbound guard, into storage) happens when the import runs, a few rows at once, before the
// transaction. A URL that fails there refuses the import with the row's MEDIA_URL_REFUSED,
// and what was fetched is deleted again.
import { randomUUID } from 'node:crypto';
import { TZDate } from '@date-fns/tz';
import type { z } from 'zod';
import { db, type Tx } from '@/server/db/client';
import { sqlRows } from '@/server/db/sql';
import { AppError, isAppError } from '@/server/errors/app-error';
import { kickOutboxDrain } from '@/server/events';
import { Prisma, type Connection } from '@/server/generated/prisma/client';
import { fingerprint } from '@/server/idempotency/idempotency';
import { getJobs } from '@/server/jobs';
import { deleteMediaAsset } from '@/server/media/media-assets';
import { importMediaUrls } from '@/server/media/import-media-urls';
import type { ResolvedMedia } from '@/server/media/media.types';
import { currentRequestId, log } from '@/server/observability/log';
import { readCell, parseCsv, CsvSyntaxError } from '@/server/shared/csv';
import { isPlatform, PLATFORMS, type Platform } from '@/server/shared/platforms';
import { isUuid, type Warning } from '@/server/shared/schemas';
import { takeQueueSlot } from '@/server/queue/posting-queue';
import { deliveryJobKey } from './delivery/schedule';
import { accountTextLimits, platformLimitProblems } from './platform-limits';
import { validatePlatformSettings } from './platform-settings';
import { checkVariants, pickTargetConnections, platformsOf, workspaceRequiresApproval } from './post-inputs';
import {
  EXPORT_ONLY_COLUMNS,
  IMPORT_COLUMNS,
  MAX_IMPORT_ROWS,
  type ImportColumn,
  type ImportInput,
  type ImportPreview,
  type ImportProblem,
  type ImportResult,
  type ImportRow,
} from './post-import.schemas';
import { APPROVAL_WARNING, approvalNeeded, checkQueueOrTime, isApprovalBlocking, resolveScheduledAt } from './post-rules';
import { ZCreatePostInput, type CreatePostInput } from './posts.schemas';

/** Rows inserted per statement: large enough that 10,000 rows are a handful of round trips. */
const INSERT_BATCH = 1000;
/** Rows whose media are fetched at once (each row's own URLs go three at a time). */
const MEDIA_ROWS_AT_ONCE = 4;

interface RawRow {
  row: number;
  line: number | null;
  cells: Partial<Record<ImportColumn, unknown>>;
}

/** A row as checked: what it would create, or its problems. */
interface CheckedRow {
  out: ImportRow;
  key: string;
  input: CreatePostInput | null;
  connections: Connection[];
  platforms: Platform[];
  settings: ReturnType<typeof validatePlatformSettings>;
  scheduledAt: Date | null;
}

interface WorkspaceFacts {
  timeZone: string;
  connections: Connection[];
  byId: Map<string, Connection>;
  requiresApproval: boolean;
}

// ── Reading the file ────────────────────────────────────────────────────────────────────

const fileError = (message: string) => new AppError('VALIDATION_FAILED', message, { field: 'content' });
const KNOWN = new Set<string>(IMPORT_COLUMNS);
const IGNORED = new Set<string>(EXPORT_ONLY_COLUMNS);

/** The header's column names, checked: each known (or an export's read-only one), none twice, content present. */
function readHeader(names: readonly string[]): { columns: (ImportColumn | null)[]; ignored: string[] } {
  const seen = new Set<string>();
  const ignored: string[] = [];
  const columns = names.map((raw) => {
    const name = raw.trim();
    if (seen.has(name)) throw fileError(`The column "${name}" appears twice`);
    seen.add(name);
    if (KNOWN.has(name)) return name as ImportColumn;
    if (IGNORED.has(name)) {
      ignored.push(name);
      return null;
    }
    throw fileError(`"${name}" is not a column an import reads (known: ${IMPORT_COLUMNS.join(', ')})`);
  });
  if (!seen.has('content')) throw fileError('The file has no content column');
  if (!seen.has('accounts')) throw fileError('The file has no accounts column');
  return { columns, ignored };
}

function readCsvRows(text: string): { rows: RawRow[]; ignored: string[] } {
  let records;
  try {
    records = parseCsv(text);
  } catch (e) {
    if (e instanceof CsvSyntaxError) throw fileError(e.message);
    throw e;
  }
  const [header, ...body] = records;
  if (!header) throw fileError('The file is empty');
  const { columns, ignored } = readHeader(header.cells);
  checkRowCount(body.length);
  const rows = body.map((rec, i) => {
    if (rec.cells.length > columns.length) throw fileError(`Line ${rec.line} has ${rec.cells.length} fields; the header has ${columns.length}`);
    const cells: RawRow['cells'] = {};
    columns.forEach((col, k) => {
      const cell = rec.cells[k];
      if (col && cell !== undefined && cell !== '') cells[col] = readCell(cell);
    });
    return { row: i + 1, line: rec.line, cells };
  });
  return { rows, ignored };
}

function readJsonRows(text: string): { rows: RawRow[]; ignored: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw fileError(`The file is not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw fileError('A JSON import is an array of posts, each an object keyed by the column names');
  checkRowCount(parsed.length);
  const ignored = new Set<string>();
  const rows = parsed.map((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw fileError(`Post ${i + 1} is not an object`);
    const cells: RawRow['cells'] = {};
    for (const [key, value] of Object.entries(item as Record<string, unknown>)) {
      if (key === 'variants' && value && typeof value === 'object' && !Array.isArray(value)) {
        // { "twitter": "…" } or the API's { "twitter": { "content": "…" } }
        for (const [p, v] of Object.entries(value as Record<string, unknown>)) {
          const text = v && typeof v === 'object' && 'content' in v ? (v as { content: unknown }).content : v;
          if (!KNOWN.has(`variant.${p}`)) throw fileError(`Post ${i + 1}: "${p}" is not a platform`);
          cells[`variant.${p}` as ImportColumn] = text;
        }
        continue;
      }
      if (KNOWN.has(key)) {
        if (value !== null && value !== undefined && value !== '') cells[key as ImportColumn] = value;
      } else if (IGNORED.has(key)) ignored.add(key);
      else throw fileError(`Post ${i + 1}: "${key}" is not a column an import reads (known: ${IMPORT_COLUMNS.join(', ')})`);
    }
    return { row: i + 1, line: null, cells };
  });
  return { rows, ignored: [...ignored] };
}

function checkRowCount(n: number): void {
  if (n === 0) throw fileError('The file has no posts');
  if (n > MAX_IMPORT_ROWS) throw fileError(`The file has ${n} posts; an import takes at most ${MAX_IMPORT_ROWS}: split it`);
}

// ── One row ─────────────────────────────────────────────────────────────────────────────

/** `field` of an AppError from the create rules → the import column it concerns. */
function columnOf(field: string | undefined): string {
  if (!field) return 'content';
  if (field.startsWith('connectionIds')) return 'accounts';
  if (field.startsWith('mediaIds') || field.startsWith('mediaUrls')) return 'media';
  if (field.startsWith('variants.')) return `variant.${field.split('.')[1]}`;
  if (field.startsWith('platformSettings')) return 'platformSettings';
  if (field === 'scheduledAt' || field === 'queue' || field === 'requireApproval') return field;
  return 'content';
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const BOOLEANS: Record<string, boolean> = { true: true, yes: true, '1': true, false: false, no: false, '0': false };

const text = (v: unknown): string | undefined =>
  v === undefined ? undefined : typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
const list = (v: unknown, separator: RegExp): string[] | undefined => {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v.map((x) => String(x).trim()).filter(Boolean);
  const t = text(v);
  return t === undefined
    ? undefined
    : t
        .split(separator)
        .map((x) => x.trim())
        .filter(Boolean);
};

/** An account named by id, by name (its handle or display name), or `platform:name` when a name is shared. */
function resolveAccount(entry: string, ws: WorkspaceFacts): { id: string } | { problem: ImportProblem } {
  if (isUuid(entry)) return { id: entry };
  const colon = entry.indexOf(':');
  const prefix = colon > 0 ? entry.slice(0, colon).trim().toLowerCase() : '';
  const platform = isPlatform(prefix) ? prefix : null;
  const name = (platform ? entry.slice(colon + 1) : entry).trim().replace(/^@/, '').toLowerCase();
  const matches = ws.connections.filter(
    (c) => (!platform || c.platform === platform) && (c.accountName.replace(/^@/, '').toLowerCase() === name || c.displayName.toLowerCase() === name),
  );
  if (matches.length === 1) return { id: matches[0]!.id };
  if (matches.length === 0) return { problem: { column: 'accounts', code: 'CONNECTION_NOT_FOUND', message: `No account “${entry}” in this workspace` } };
  return {
    problem: {
      column: 'accounts',
      code: 'VALIDATION_FAILED',
      message: `${matches.length} accounts are called “${entry}”: write platform:name (${matches.map((m) => `${m.platform}:${m.accountName}`).join(', ')}) or the id`,
    },
  };
}

/** The row's time: ISO 8601 with an offset, or a wall-clock time on the workspace's clock. */
function readTime(raw: string, timeZone: string): string | null {
  const local = LOCAL_TIME.exec(raw);
  if (local) {
    const [, y, mo, d, h, mi, s] = local.map(Number) as number[];
    const at = new TZDate(y!, mo! - 1, d!, h!, mi!, s || 0, timeZone);
    // A wall time that does not exist (skipped by a daylight-saving change) or out of range.
    if (Number.isNaN(at.getTime()) || at.getMonth() !== mo! - 1 || at.getDate() !== d!) return null;
    return new Date(at.getTime()).toISOString();
  }
  const parsed = ZCreatePostInput.shape.scheduledAt.safeParse(raw);
  return parsed.success ? new Date(raw).toISOString() : null;
}

/** A zod issue of the create schema, in a member's words, at its column. */
function issueProblem(issue: z.core.$ZodIssue): ImportProblem {
  const [head, sub] = issue.path.map(String);
  const column = head === 'variants' ? `variant.${sub}` : columnOf(head === 'connectionIds' ? 'connectionIds' : head === 'mediaUrls' ? 'mediaUrls' : head);
  let message = issue.message;
  if (issue.code === 'too_small') message = head === 'connectionIds' ? 'Name at least one account' : 'This is empty';
  if (issue.code === 'too_big') {
    const max = (issue as { maximum?: number | bigint }).maximum;
    message =
      head === 'connectionIds' ? `At most ${max} accounts per post` : head === 'mediaUrls' ? `At most ${max} media per post` : `At most ${max} characters`;
  }
  return { column, code: 'VALIDATION_FAILED', message };
}

/** Media by URL in the preview: the kind its extension says, so the count and kind rules run before anything is fetched. */
function guessedMedia(urls: readonly string[]): ResolvedMedia[] | null {
  const out: ResolvedMedia[] = [];
  for (const url of urls) {
    const path = url.split(/[?#]/)[0]!.toLowerCase();
    const kind = /\.(jpe?g|png|gif|webp|heic|avif)$/.test(path) ? 'image' : /\.(mp4|mov|m4v|webm)$/.test(path) ? 'video' : null;
    if (!kind) return null;
    out.push({ assetId: url, url, kind, contentType: '', bytes: 0, durationMs: null });
  }
  return out;
}

/** Runs one rule; its AppError becomes a problem at its column. */
function attempt<T>(problems: ImportProblem[], rule: () => T): T | undefined {
  try {
    return rule();
  } catch (e) {
    if (!isAppError(e)) throw e;
    problems.push({ column: columnOf(e.field), code: e.code, message: e.message });
    return undefined;
  }
}

function rowKey(workspaceId: string, raw: RawRow, candidate: Record<string, unknown>): string {
  const id = text(raw.cells.id)?.trim();
  return fingerprint(`posts.import:${workspaceId}`, id ? { id } : candidate);
}

function checkRow(workspaceId: string, raw: RawRow, ws: WorkspaceFacts, now: Date): CheckedRow {
  const problems: ImportProblem[] = [];
  const warnings: Warning[] = [];
  const c = raw.cells;

  const accountIds: string[] = [];
  for (const entry of list(c.accounts, /[;\n]/) ?? []) {
    const r = resolveAccount(entry, ws);
    if ('id' in r) accountIds.push(r.id);
    else problems.push(r.problem);
  }
  const variants: Partial<Record<Platform, { content: string }>> = {};
  for (const p of PLATFORMS) {
    const v = text(c[`variant.${p}`]);
    if (v !== undefined && v !== '') variants[p] = { content: v };
  }
  const media = list(c.media, /\s+/);
  for (const url of media ?? []) {
    // The form now; the address itself is fetched by the import (the same MEDIA_URL_REFUSED if it fails then).
    if (!URL.canParse(url) || new URL(url).protocol !== 'https:') {
      problems.push({ column: 'media', code: 'MEDIA_URL_REFUSED', message: `${url} is not an https address` });
    }
  }
  const boolean = (column: 'queue' | 'requireApproval'): boolean | undefined => {
    const v = c[column];
    if (v === undefined || typeof v === 'boolean') return v;
    const b = BOOLEANS[String(v).trim().toLowerCase()];
    if (b === undefined) problems.push({ column, code: 'VALIDATION_FAILED', message: `Write true or false, not “${String(v)}”` });
    return b;
  };
  let queue = boolean('queue');
  const requireApproval = boolean('requireApproval');
  let scheduledAt: string | undefined;
  const when = text(c.scheduledAt)?.trim();
  if (when && when.toLowerCase() === 'queue') {
    if (queue === false) problems.push({ column: 'queue', code: 'VALIDATION_FAILED', message: 'scheduledAt says queue, and queue says false' });
    queue = true;
  } else if (when) {
    const at = readTime(when, ws.timeZone);
    if (at === null) {
      problems.push({
        column: 'scheduledAt',
        code: 'VALIDATION_FAILED',
        message: `“${when}” is not a time: write 2026-12-03 14:45 (the workspace’s time, ${ws.timeZone}), an ISO 8601 time with its offset, or queue`,
      });
    } else scheduledAt = at;
  }
  let platformSettings: unknown;
  if (c.platformSettings !== undefined) {
    if (typeof c.platformSettings === 'object') platformSettings = c.platformSettings;
    else {
      try {
        platformSettings = JSON.parse(String(c.platformSettings));
      } catch {
        problems.push({
          column: 'platformSettings',
          code: 'VALIDATION_FAILED',
          message: 'Not JSON: write an object such as {"linkedin":{"visibility":"PUBLIC"}}',
        });
      }
    }
  }

  const candidate = {
    content: text(c.content) ?? '',
    connectionIds: accountIds,
    ...(scheduledAt !== undefined && { scheduledAt }),
    ...(media?.length && { mediaUrls: media }),
    ...(platformSettings !== undefined && { platformSettings }),
    ...(Object.keys(variants).length && { variants }),
    ...(requireApproval !== undefined && { requireApproval }),
    ...(queue === true && { queue: true as const }),
  };
  const key = rowKey(workspaceId, raw, candidate);
  let at: Date | null = null;

  // The create schema first (lengths, counts, shapes), then the create rules on what parsed.
  const parsed = ZCreatePostInput.safeParse(candidate);
  // An account that did not resolve already has its problem; "at least one" only when none was named.
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.path[0] === 'connectionIds' && issue.code === 'too_small' && problems.some((p) => p.column === 'accounts')) continue;
      problems.push(issueProblem(issue));
    }
  }
  const input = parsed.success ? parsed.data : null;
  // The time rules need nothing else of the row: checked whatever else failed.
  attempt(problems, () => checkQueueOrTime(candidate));
  if (scheduledAt !== undefined) at = attempt(problems, () => resolveScheduledAt(scheduledAt, now, warnings)) ?? null;
  let connections: Connection[] = [];
  let platforms: Platform[] = [];
  let settings: CheckedRow['settings'] = null;
  if (input) {
    // One account at a time, so each unusable account is named.
    for (const id of new Set(input.connectionIds)) {
      const got = attempt(problems, () => pickTargetConnections([id], ws.byId));
      if (got) connections.push(...got);
    }
    platforms = platformsOf(connections);
    const allFound = connections.length === new Set(input.connectionIds).size;
    if (allFound) {
      attempt(problems, () => checkVariants(input.variants, platforms));
      settings = attempt(problems, () => validatePlatformSettings(input.platformSettings, platforms)) ?? null;
    }
    if (allFound && !problems.some((p) => p.column === 'platformSettings' || p.column.startsWith('variant.'))) {
      const guessed = guessedMedia(input.mediaUrls ?? []);
      const limitProblems = platformLimitProblems({
        platforms,
        content: input.content,
        variants: input.variants,
        media: guessed ?? [],
        settings,
        accountTextLimits: accountTextLimits(connections),
      });
      for (const e of limitProblems) {
        // With URLs of a kind their address does not tell, media rules wait for the download.
        if (!guessed && columnOf(e.field) === 'media') continue;
        problems.push({ column: columnOf(e.field), code: e.code, message: e.message });
      }
    }
    const scheduled = input.scheduledAt !== undefined || input.queue === true;
    if (scheduled && approvalNeeded(ws.requiresApproval, input.requireApproval ?? false)) warnings.push(APPROVAL_WARNING);
  } else {
    connections = accountIds.flatMap((id) => (ws.byId.get(id) ? [ws.byId.get(id)!] : []));
  }

  const out: ImportRow = {
    row: raw.row,
    line: raw.line,
    status: problems.length ? 'invalid' : 'ready',
    postId: null,
    content: candidate.content,
    accounts: connections.map((x) => ({
      id: x.id,
      platform: x.platform as Platform,
      name: x.displayName,
    })),
    when: queue === true ? 'queue' : scheduledAt ? 'at' : 'draft',
    scheduledAt: at ? at.toISOString() : (scheduledAt ?? null),
    media: media ?? [],
    problems,
    warnings,
  };
  return { out, key, input: problems.length ? null : input, connections, platforms, settings, scheduledAt: at };
}

// ── Preview ─────────────────────────────────────────────────────────────────────────────

async function workspaceFacts(workspaceId: string): Promise<WorkspaceFacts> {
  const [ws] = await sqlRows<{ timeZone: string }>(Prisma.sql`SELECT "timeZone" FROM "Workspace" WHERE id = ${workspaceId}::uuid`);
  const connections = await sqlRows<Connection>(Prisma.sql`SELECT * FROM "Connection" WHERE "workspaceId" = ${workspaceId}::uuid ORDER BY "createdAt", id`);
  return {
    timeZone: ws?.timeZone ?? 'UTC',
    connections,
    byId: new Map(connections.map((c) => [c.id, c])),
    requiresApproval: await workspaceRequiresApproval(workspaceId),
  };
}

/** Rows whose post exists: by key, or by an `id` column naming a post of this workspace (an export read back). */
async function existingPosts(client: Pick<Tx, '$queryRaw'> | null, workspaceId: string, rows: readonly { key: string; id?: string }[]) {
  const keys = rows.map((r) => r.key);
  const ids = rows.flatMap((r) => (r.id && isUuid(r.id) ? [r.id] : []));
  const statement = Prisma.sql`SELECT id, "importKey" FROM "Post" WHERE "workspaceId" = ${workspaceId}::uuid
    AND ("importKey" = ANY(${keys}::text[]) OR id = ANY(${ids}::uuid[]))`;
  const found = client
    ? await client.$queryRaw<{ id: string; importKey: string | null }[]>(statement)
    : await sqlRows<{ id: string; importKey: string | null }>(statement);
  const byKey = new Map(found.filter((f) => f.importKey).map((f) => [f.importKey!, f.id]));
  const byId = new Set(found.map((f) => f.id));
  return (r: { key: string; id?: string }): string | null => byKey.get(r.key) ?? (r.id && byId.has(r.id) ? r.id : null);
}

async function checkFile(workspaceId: string, input: ImportInput) {
  const { rows: raws, ignored } = input.format === 'csv' ? readCsvRows(input.content) : readJsonRows(input.content);
  const ws = await workspaceFacts(workspaceId);
  const now = new Date();
  const checked = raws.map((raw) => ({ ...checkRow(workspaceId, raw, ws, now), id: text(raw.cells.id)?.trim() }));
  const existing = await existingPosts(null, workspaceId, checked);
  const firstRowOfKey = new Map<string, number>();
  for (const row of checked) {
    const postId = existing(row);
    if (postId) {
      // Its post exists: nothing to check (a time in the file may have passed since).
      Object.assign(row.out, { status: 'already_imported', postId, problems: [], warnings: [] });
      row.input = null;
      continue;
    }
    const first = firstRowOfKey.get(row.key);
    if (first !== undefined) {
      row.out.problems.push({
        column: row.id ? 'id' : 'content',
        code: 'VALIDATION_FAILED',
        message: row.id ? `Row ${first} has the same id` : `Same as row ${first}: one file’s identical rows are one post (give each an id to import both)`,
      });
      row.out.status = 'invalid';
      row.input = null;
    } else firstRowOfKey.set(row.key, row.out.row);
  }
  return { checked, ignored, ws, now };
}

function totalsOf(rows: readonly ImportRow[]) {
  return {
    rows: rows.length,
    ready: rows.filter((r) => r.status === 'ready').length,
    invalid: rows.filter((r) => r.status === 'invalid').length,
    alreadyImported: rows.filter((r) => r.status === 'already_imported').length,
  };
}

/** POST /posts/import/preview: every row as the import would take it, with all its problems. Writes nothing. */
export async function previewImport(workspaceId: string, input: ImportInput): Promise<ImportPreview> {
  const { checked, ignored } = await checkFile(workspaceId, input);
  const rows = checked.map((c) => c.out);
  return { rows, totals: totalsOf(rows), ignoredColumns: ignored };
}

/** Whether the import would be accepted now, writing nothing (run before a call is staged): IMPORT_INVALID otherwise. */
export async function checkImport(workspaceId: string, input: ImportInput): Promise<void> {
  const { rows } = await previewImport(workspaceId, input);
  if (rows.some((r) => r.status === 'invalid')) throw refuse(rows);
}

// ── Import ──────────────────────────────────────────────────────────────────────────────

function refuse(rows: readonly ImportRow[]): AppError {
  const bad = rows.filter((r) => r.problems.length);
  const first = bad[0]!;
  const p = first.problems[0]!;
  return new AppError(
    'IMPORT_INVALID',
    `${bad.length} of ${rows.length} rows cannot be imported, so nothing was imported (row ${first.row}, ${p.column}: ${p.message}); POST /posts/import/preview lists every problem`,
    { field: 'content' },
  );
}

/** Runs `task` over `items`, `limit` at a time, every item attempted. */
async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function discardFetched(workspaceId: string, media: readonly ResolvedMedia[]): Promise<void> {
  const results = await Promise.allSettled(media.filter((m) => m.imported).map((m) => deleteMediaAsset(workspaceId, m.assetId)));
  for (const r of results) if (r.status === 'rejected') log.warn('posts', 'could not discard an imported media asset', r.reason);
}

interface ImportOptions {
  /** Who asked, for posts that go to the approval queue (called once, only then). */
  requester?: () => Promise<string>;
}

/**
 * POST /posts/import: the preview's checks; then, if no row has a problem, the media fetched
 * and their rules checked, then every new row written in one transaction (already imported
 * rows skipped). Any problem refuses the whole file with IMPORT_INVALID and writes nothing.
 */
export async function importPosts(workspaceId: string, input: ImportInput, opts: ImportOptions = {}): Promise<{ result: ImportResult; warnings: Warning[] }> {
  const { checked, ws, now } = await checkFile(workspaceId, input);
  if (checked.some((c) => c.out.status === 'invalid')) throw refuse(checked.map((c) => c.out));
  const todo = checked.filter((c) => c.out.status === 'ready');

  // Media: fetched now (a few rows at once), then the platform rules run on what came back.
  const mediaOf = new Map<CheckedRow, ResolvedMedia[]>();
  const withUrls = todo.filter((c) => c.input?.mediaUrls?.length);
  await eachLimited(withUrls, MEDIA_ROWS_AT_ONCE, async (c) => {
    try {
      mediaOf.set(c, await importMediaUrls(workspaceId, c.input!.mediaUrls!));
    } catch (e) {
      if (!isAppError(e)) throw e;
      c.out.problems.push({ column: 'media', code: e.code, message: e.message });
    }
  });
  const fetched = [...mediaOf.values()].flat();
  try {
    for (const [c, media] of mediaOf) {
      const problems = platformLimitProblems({
        platforms: c.platforms,
        content: c.input!.content,
        variants: c.input!.variants,
        media,
        settings: c.settings,
        accountTextLimits: accountTextLimits(c.connections),
      });
      for (const e of problems) c.out.problems.push({ column: columnOf(e.field), code: e.code, message: e.message });
    }
    if (todo.some((c) => c.out.problems.length)) {
      for (const c of todo) if (c.out.problems.length) c.out.status = 'invalid';
      throw refuse(checked.map((c) => c.out));
    }
    const requestedBy = todo.some((c) => needsApproval(c, ws)) && opts.requester ? await opts.requester() : null;
    const written = await db.$transaction((tx) => writeRows(tx, workspaceId, todo, mediaOf, ws, now, requestedBy), { timeout: 120_000 });
    await afterCommit(written.scheduled);
    const posts = checked.map((c) => ({
      row: c.out.row,
      postId: c.out.postId ?? written.ids.get(c)!,
      status: c.out.status === 'already_imported' || written.skipped.has(c) ? ('already_imported' as const) : ('created' as const),
    }));
    const created = posts.filter((p) => p.status === 'created').length;
    const warnings = checked.some((c) => c.out.status === 'ready' && needsApproval(c, ws)) ? [APPROVAL_WARNING] : [];
    return { result: { created, alreadyImported: posts.length - created, posts }, warnings };
  } catch (e) {
    await discardFetched(workspaceId, fetched);
    throw e;
  }
}

function needsApproval(c: CheckedRow, ws: WorkspaceFacts): boolean {
  const scheduled = c.scheduledAt !== null || c.input?.queue === true;
  return scheduled && approvalNeeded(ws.requiresApproval, c.input?.requireApproval ?? false);
}

const json = (v: unknown) => (v === null || v === undefined ? null : v);

async function writeRows(
  tx: Tx,
  workspaceId: string,
  todo: CheckedRow[],
  mediaOf: Map<CheckedRow, ResolvedMedia[]>,
  ws: WorkspaceFacts,
  now: Date,
  requestedBy: string | null,
) {
  // One import at a time per workspace, so "already imported" is read and acted on together.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`herald:import:${workspaceId}`}, 0))`;
  const existing = await existingPosts(
    tx,
    workspaceId,
    todo.map((c) => ({ key: c.key })),
  );
  const skipped = new Set<CheckedRow>();
  const ids = new Map<CheckedRow, string>();
  const placed = new Map<string, Set<number>>();
  const records: Record<string, unknown>[] = [];
  const scheduled: { id: string; scheduledAt: Date; blocked: boolean }[] = [];
  for (const c of todo) {
    const already = existing({ key: c.key });
    if (already) {
      // Written by an import that ran since this file was read.
      skipped.add(c);
      ids.set(c, already);
      continue;
    }
    const input = c.input!;
    const queued = input.queue === true;
    let at = c.scheduledAt;
    if (queued) {
      // The queue's own placement, with the slots this file already took on these accounts.
      const alsoTaken = new Set<number>();
      for (const conn of c.connections) for (const t of placed.get(conn.id) ?? []) alsoTaken.add(t);
      try {
        at = await takeQueueSlot(tx, workspaceId, c.connections, now, { alsoTaken });
      } catch (e) {
        if (!isAppError(e)) throw e;
        c.out.problems.push({ column: 'queue', code: e.code, message: e.message });
        c.out.status = 'invalid';
        throw refuse(todo.map((x) => x.out));
      }
      for (const conn of c.connections) placed.set(conn.id, (placed.get(conn.id) ?? new Set()).add(at.getTime()));
    }
    const approval = needsApproval(c, ws);
    const media = (mediaOf.get(c) ?? []).map(({ imported: _imported, ...m }) => ({ ...m, origin: 'mediaUrls' as const }));
    const id = randomUUID();
    ids.set(c, id);
    if (at) scheduled.push({ id, scheduledAt: at, blocked: isApprovalBlocking(approval ? 'pending' : 'none') });
    records.push({
      id,
      content: input.content,
      variants: json(input.variants),
      media,
      mediaUrls: media.map((m) => m.url),
      platforms: c.platforms,
      connectionIds: c.connections.map((x) => x.id),
      targetPlatforms: c.connections.map((x) => x.platform),
      status: at ? 'scheduled' : 'draft',
      approvalStatus: approval ? 'pending' : 'none',
      approvalRequestedBy: approval ? requestedBy : null,
      approvalRequestedAt: approval ? now.toISOString() : null,
      requireApproval: input.requireApproval ?? false,
      scheduledAt: at ? at.toISOString() : null,
      platformSettings: json(c.settings),
      queued,
      importKey: c.key,
    });
  }
  for (let i = 0; i < records.length; i += INSERT_BATCH) await insertBatch(tx, workspaceId, records.slice(i, i + INSERT_BATCH), now);
  return { ids, skipped, scheduled };
}

/**
 * A batch of posts, their targets and their events in one statement: the rows travel as one
 * JSON parameter, and the post-count triggers (statement-level) see one insert.
 */
async function insertBatch(tx: Tx, workspaceId: string, records: Record<string, unknown>[], now: Date): Promise<void> {
  const requestId = currentRequestId() ?? null;
  await tx.$executeRaw`
    WITH r AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS x(
        id uuid, content text, variants jsonb, media jsonb, "mediaUrls" text[], platforms text[], "connectionIds" text[], "targetPlatforms" text[],
        status text, "approvalStatus" text, "approvalRequestedBy" text, "approvalRequestedAt" timestamp, "requireApproval" boolean,
        "scheduledAt" timestamp, "platformSettings" jsonb, queued boolean, "importKey" text)
    ), p AS (
      INSERT INTO "Post" ("id", "workspaceId", "content", "variants", "media", "mediaUrls", "platforms", "connectionIds", "status",
        "approvalStatus", "approvalRequestedBy", "approvalRequestedAt", "requireApproval", "scheduledAt", "platformSettings", "queued", "importKey",
        "createdAt", "updatedAt")
      SELECT r.id, ${workspaceId}::uuid, r.content, r.variants, r.media, r."mediaUrls", r.platforms, r."connectionIds", r.status,
        r."approvalStatus", r."approvalRequestedBy", r."approvalRequestedAt", r."requireApproval", r."scheduledAt", r."platformSettings", r.queued, r."importKey",
        ${now}, ${now}
      FROM r
      RETURNING id
    ), t AS (
      INSERT INTO "PostTarget" ("id", "postId", "connectionId", "platform", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), r.id, c.id::uuid, c.platform, ${now}, ${now}
      FROM r CROSS JOIN LATERAL unnest(r."connectionIds", r."targetPlatforms") AS c(id, platform)
      WHERE r.id IN (SELECT id FROM p)
    )
    INSERT INTO "OutboxEvent" ("id", "workspaceId", "type", "data", "requestId")
    SELECT gen_random_uuid(), ${workspaceId}::uuid, e.type, e.data, ${requestId}
    FROM r CROSS JOIN LATERAL (VALUES
      ('post.scheduled', jsonb_build_object('postId', r.id, 'scheduledAt', to_char(r."scheduledAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'platforms', to_jsonb(r.platforms)), r.status = 'scheduled'),
      ('post.approval_required', jsonb_build_object('postId', r.id), r."approvalStatus" = 'pending')
    ) AS e(type, data, due)
    WHERE e.due AND r.id IN (SELECT id FROM p)`;
}

/** After the commit: the outbox drained, and one delivery job per scheduled post not held for approval. */
async function afterCommit(scheduled: { id: string; scheduledAt: Date; blocked: boolean }[]): Promise<void> {
  if (!scheduled.length) return;
  void kickOutboxDrain();
  const due = scheduled.filter((s) => !s.blocked);
  try {
    for (let i = 0; i < due.length; i += INSERT_BATCH) {
      await getJobs().enqueueMany(
        'posts.deliver',
        due.slice(i, i + INSERT_BATCH).map((s) => ({ payload: { postId: s.id, scheduleVersion: 0 }, runAt: s.scheduledAt, key: deliveryJobKey(s.id) })),
      );
    }
  } catch (err) {
    // As for one post (delivery/schedule.ts): the catch-up sweep delivers what has no job.
    log.warn('posts', 'could not enqueue the delivery of imported posts; the catch-up sweep will deliver them', err);
  }
}
