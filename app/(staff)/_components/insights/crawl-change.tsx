'use client';
// One detected change: each changed field before and after, and the main text diffed word by
// word (the `diff` library, as the crawler's own summary) over both visits' whole text.
import { useQuery } from '@tanstack/react-query';
import { diffWords, type ChangeObject } from 'diff';
import Link from 'next/link';
import { useMemo } from 'react';
import { Card, ErrorState, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import { MAX_EDIT_LENGTH } from '@/server/crawl/changes';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { CHANGE_FIELD_LABELS } from './crawl-bits';
import { Provenance } from './provenance';

type Detail = Awaited<ReturnType<typeof trpc.crawl.change.query>>['data'];
type Snapshot = Detail['before'];

const FIELD_LABELS = CHANGE_FIELD_LABELS;

function asText(s: Snapshot, field: keyof typeof FIELD_LABELS): string {
  if (field === 'headings') return s.headings.map((h) => `${'#'.repeat(h.level)} ${h.text}`).join('\n');
  return s[field] ?? '';
}

function Diff({ before, after, label }: { before: string; after: string; label: string }) {
  const parts = useMemo<ChangeObject<string>[] | undefined>(() => diffWords(before, after, { maxEditLength: MAX_EDIT_LENGTH }), [before, after]);
  if (!parts) {
    return (
      <div className="grid gap-2 sm:grid-cols-2">
        <p className="text-sm text-slate-600 sm:col-span-2">Too many differences to mark word by word; both versions follow.</p>
        <pre className="max-h-96 overflow-auto rounded bg-slate-50 p-2 text-sm whitespace-pre-wrap" tabIndex={0} aria-label={`${label} before`}>
          {before}
        </pre>
        <pre className="max-h-96 overflow-auto rounded bg-slate-50 p-2 text-sm whitespace-pre-wrap" tabIndex={0} aria-label={`${label} after`}>
          {after}
        </pre>
      </div>
    );
  }
  return (
    <div
      className="max-h-[32rem] overflow-auto rounded bg-slate-50 p-3 text-sm break-words whitespace-pre-wrap"
      tabIndex={0}
      role="region"
      aria-label={`${label}: differences`}
      data-testid="diff"
    >
      {parts.map((p, i) =>
        p.added ? (
          <ins key={i} className="bg-emerald-100 text-emerald-900 underline" data-testid="diff-added">
            <span className="sr-only">[added: </span>
            {p.value}
            <span className="sr-only">]</span>
          </ins>
        ) : p.removed ? (
          <del key={i} className="bg-red-100 text-red-900 line-through" data-testid="diff-removed">
            <span className="sr-only">[removed: </span>
            {p.value}
            <span className="sr-only">]</span>
          </del>
        ) : (
          <span key={i}>{p.value}</span>
        ),
      )}
    </div>
  );
}

export function CrawlChange({ changeId }: { changeId: string }) {
  const { current } = useShell();
  const tz = current.timeZone;
  const q = useQuery({ queryKey: ['crawl.change', changeId], queryFn: () => trpc.crawl.change.query({ changeId }) });
  if (q.isPending) return <LoadingRows label="Loading the change" />;
  if (q.isError) {
    return (
      <>
        <PageHeader title="Change" />
        <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />
      </>
    );
  }
  const c = q.data.data;
  return (
    <>
      <PageHeader title="Change" />
      <p className="mb-3 text-sm">
        <Link href={`/crawl/pages/${c.pageId}?site=${c.siteId}`} className="text-brand-700 underline">
          Back to the page history
        </Link>
      </p>
      <Card className="mb-4 space-y-1">
        <p className="font-medium break-all">{c.url}</p>
        <p className="text-sm text-slate-700">
          Compared the visit of {formatIn(c.before.visitedAt, tz)} with the visit of {formatIn(c.after.visitedAt, tz)}.
        </p>
        <p className="text-sm text-slate-700">
          Main text: {c.diffSummary.addedWords} words added, {c.diffSummary.removedWords} removed, {c.diffSummary.unchangedWords} unchanged.
        </p>
        <p className="text-xs text-slate-600">
          Legend: <ins className="bg-emerald-100 text-emerald-900 underline">added</ins> <del className="bg-red-100 text-red-900 line-through">removed</del>
        </p>
        <Provenance p={q.data.provenance} tz={tz} />
      </Card>
      <div className="space-y-4">
        {c.fields.map((field) => (
          <section key={field} aria-labelledby={`field-${field}`} className="min-w-0">
            <h2 id={`field-${field}`} className="mb-2 font-semibold text-slate-900">
              {FIELD_LABELS[field]}
            </h2>
            <Diff before={asText(c.before, field)} after={asText(c.after, field)} label={FIELD_LABELS[field]} />
          </section>
        ))}
      </div>
    </>
  );
}
