'use client';
// Import posts: a CSV or JSON file is read and checked (the import preview: every row against
// the rules of a new post, nothing written), each problem shown at its row and column; "Import
// N posts" appears only when no row has one, and imports all of them or none.
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/app/_ui/button';
import { Badge, Card, FieldError, Input, Label, PageHeader } from '@/app/_ui/primitives';
import type { ImportInput, ImportPreview, ImportProblem, ImportResult, ImportRow } from '@/server/posts/post-import.schemas';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { inWords } from './in-words';
import { platformLabel, useInvalidateAll } from './post-bits';

const TEMPLATE = [
  'content,accounts,variant.twitter,media,scheduledAt,requireApproval',
  '"Our autumn menu is here: pumpkin spice is back from Monday.",linkedin:your-account; twitter:your-handle,Pumpkin spice is back 🎃,,2026-12-03 09:00,false',
  'A draft without a time,your-account,,,,',
  'Next free slot of the queue,your-account,,,queue,',
].join('\r\n');

/** Where a problem is shown: the cell of the part of the post it concerns. */
const CELLS = ['Text', 'Accounts', 'When', 'Media'] as const;
type Cell = (typeof CELLS)[number];
function cellOf(column: string): Cell {
  if (column === 'accounts' || column === 'platformSettings') return 'Accounts';
  if (column === 'scheduledAt' || column === 'queue' || column === 'requireApproval') return 'When';
  if (column === 'media') return 'Media';
  return 'Text';
}
/** A column in a member's words. */
function columnInWords(column: string): string {
  if (column.startsWith('variant.')) return `${platformLabel(column.slice('variant.'.length))} text`;
  return (
    {
      content: 'Text',
      accounts: 'Accounts',
      media: 'Media',
      scheduledAt: 'Time',
      queue: 'Queue',
      requireApproval: 'Approval',
      platformSettings: 'Settings',
      id: 'Id',
    }[column] ?? column
  );
}

/** Rows shown at once: every row with a problem, and the first ready ones. */
const SHOWN_READY = 100;

export function PostImport() {
  const { current } = useShell();
  const tz = current.timeZone;
  const invalidate = useInvalidateAll();
  const [file, setFile] = useState<{ name: string; input: ImportInput } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const firstProblem = useRef<HTMLLIElement>(null);

  const preview = useMutation({
    mutationFn: (input: ImportInput) => trpc.posts.importPreview.mutate(input),
    onError: (e) => setFileError(serverError(e).message),
  });
  const run = useMutation({
    mutationFn: (input: ImportInput) => trpc.posts.import.mutate(input),
    onSuccess: (r) => {
      setResult(r.data);
      invalidate();
    },
    onError: () => file && preview.mutate(file.input),
  });
  const data: ImportPreview | undefined = preview.data?.data;

  // The keyboard goes to the first problem, as on every form.
  useEffect(() => {
    if (data && data.totals.invalid > 0) firstProblem.current?.focus();
    if (fileError) document.getElementById('import-file')?.focus();
  }, [data, fileError]);

  const choose = async (picked: File | undefined) => {
    setFileError(null);
    setResult(null);
    run.reset();
    preview.reset();
    if (!picked) return setFile(null);
    const format = /\.json$/i.test(picked.name) || picked.type === 'application/json' ? 'json' : 'csv';
    const input: ImportInput = { format, content: await picked.text() };
    setFile({ name: picked.name, input });
    preview.mutate(input);
  };

  const template = `data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`;
  const rows = data ? [...data.rows.filter((r) => r.status === 'invalid'), ...data.rows.filter((r) => r.status !== 'invalid').slice(0, SHOWN_READY)] : [];
  rows.sort((a, b) => a.row - b.row);
  const hidden = data ? data.rows.length - rows.length : 0;
  const canImport = data && data.totals.invalid === 0 && data.totals.ready > 0 && !result;

  return (
    <>
      <PageHeader title="Import posts">
        <Button variant="secondary" asChild>
          <a href={template} download="herald-posts-template.csv">
            Download template
          </a>
        </Button>
        <Button variant="secondary" asChild>
          <Link href="/posts">Back to posts</Link>
        </Button>
      </PageHeader>

      <Card className="mb-4">
        <Label htmlFor="import-file">File (CSV or JSON)</Label>
        <Input
          id="import-file"
          type="file"
          accept=".csv,.json,text/csv,application/json"
          aria-describedby={fileError ? 'import-file-error import-file-help' : 'import-file-help'}
          aria-invalid={fileError ? true : undefined}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
        <p id="import-file-help" className="mt-1 text-sm text-slate-600">
          One post per row, in the template’s columns: content; accounts (names or ids, separated by ;); variant.&lt;network&gt; for a network’s own text; media
          (https addresses); scheduledAt (empty for a draft, queue, or a time on the workspace’s clock, {tz}, such as 2026-12-03 09:00); requireApproval.
          Nothing is written until you import, and a file imported before adds nothing again.
        </p>
        <FieldError id="import-file-error">{fileError}</FieldError>
      </Card>

      {preview.isPending ? <p role="status">Checking {file?.name}…</p> : null}

      {result ? (
        <Card className="mb-4" role="status" aria-label="Import result">
          <p className="font-medium">
            {result.created > 0 ? `Imported ${result.created} post${result.created === 1 ? '' : 's'}.` : 'Nothing new to import.'}
            {result.alreadyImported > 0 ? ` ${result.alreadyImported} already imported before.` : ''}
          </p>
          <Link href="/posts" className="text-brand-700 underline">
            See them in Posts
          </Link>
        </Card>
      ) : null}

      {data && !result ? (
        <section aria-labelledby="import-preview-title">
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h2 id="import-preview-title" className="text-lg font-semibold">
              {file?.name}: {data.totals.rows} post{data.totals.rows === 1 ? '' : 's'}
            </h2>
            <p className="text-sm text-slate-700">
              {data.totals.ready} ready · {data.totals.invalid} with problems · {data.totals.alreadyImported} already imported
            </p>
          </div>
          {run.error ? (
            <p role="alert" className="mb-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              {serverError(run.error).message}
            </p>
          ) : null}
          {data.totals.invalid > 0 ? (
            <p role="alert" className="mb-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              {data.totals.invalid} row{data.totals.invalid === 1 ? ' has' : 's have'} problems: fix {data.totals.invalid === 1 ? 'it' : 'them'} in the file and
              choose it again. Nothing is imported while any row has a problem.
            </p>
          ) : null}
          {canImport ? (
            <Button className="mb-3" disabled={run.isPending} onClick={() => file && run.mutate(file.input)}>
              {run.isPending ? 'Importing…' : `Import ${data.totals.ready} post${data.totals.ready === 1 ? '' : 's'}`}
            </Button>
          ) : null}
          <ol aria-label="Rows of the file" className="space-y-2">
            {rows.map((r) => (
              <PreviewRow
                key={r.row}
                row={r}
                tz={tz}
                focusRef={r.status === 'invalid' && r === rows.find((x) => x.status === 'invalid') ? firstProblem : undefined}
              />
            ))}
          </ol>
          {hidden > 0 ? <p className="mt-2 text-sm text-slate-600">and {hidden} more ready rows</p> : null}
        </section>
      ) : null}
    </>
  );
}

function PreviewRow({ row, tz, focusRef }: { row: ImportRow; tz: string; focusRef?: React.Ref<HTMLLIElement> }) {
  const problemsIn = (cell: Cell): ImportProblem[] => row.problems.filter((p) => cellOf(p.column) === cell);
  const when = row.when === 'queue' ? 'Next free queue slot' : row.scheduledAt ? formatIn(row.scheduledAt, tz) : 'Draft (no time)';
  const values: Record<Cell, string> = {
    Text: row.content || '—',
    Accounts: row.accounts.length
      ? row.accounts.map((a) => (a.name.includes(platformLabel(a.platform)) ? a.name : `${a.name} (${platformLabel(a.platform)})`)).join(', ')
      : '—',
    When: when,
    Media: row.media.length ? `${row.media.length} address${row.media.length === 1 ? '' : 'es'}` : 'None',
  };
  const invalid = row.status === 'invalid';
  return (
    <li
      ref={focusRef}
      tabIndex={focusRef ? -1 : undefined}
      aria-label={`Row ${row.row}${invalid ? `, ${row.problems.length} problem${row.problems.length === 1 ? '' : 's'}` : ''}`}
      className={`rounded-md border bg-white p-3 ${invalid ? 'border-red-300' : 'border-slate-200'}`}
    >
      <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">Row {row.row}</span>
        {row.line !== null ? <span className="text-slate-600">line {row.line}</span> : null}
        {invalid ? (
          <Badge tone="bad">Problems</Badge>
        ) : row.status === 'already_imported' ? (
          <Badge tone="neutral">Already imported</Badge>
        ) : (
          <Badge tone="good">Ready</Badge>
        )}
      </div>
      <dl className="grid gap-2 text-sm sm:grid-cols-4">
        {CELLS.map((cell) => (
          <div key={cell} className="min-w-0">
            <dt className="text-xs font-medium uppercase text-slate-600">{cell}</dt>
            <dd className="break-words">{cell === 'Text' ? <span className="line-clamp-3">{values[cell]}</span> : values[cell]}</dd>
            {problemsIn(cell).map((p, i) => (
              <dd key={i} className="mt-1 text-red-700">
                <span className="font-medium">{columnInWords(p.column)}:</span> {inWords(p)}
              </dd>
            ))}
          </div>
        ))}
      </dl>
    </li>
  );
}
