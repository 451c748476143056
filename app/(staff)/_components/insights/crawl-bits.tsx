'use client';
// Pieces every crawl screen uses: the crawler's outcome shown verbatim (an unknown code is
// treated as a failure, as the contract asks), and a list with its loading, error and empty
// states and the source line under it.
import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Provenance as ProvenanceDto } from '@/server/analytics/analytics.schemas';
import { Badge, ErrorState, LoadingRows } from '@/app/_ui/primitives';
import { serverError } from '../../_lib/trpc';
import { Provenance } from './provenance';

/** The fields a detected change names, as people call them. */
export const CHANGE_FIELD_LABELS = {
  title: 'Title',
  metaDescription: 'Meta description',
  canonical: 'Canonical URL',
  headings: 'Headings',
  text: 'Main text',
} as const;

export function Outcome({ outcome, detail }: { outcome: string; detail: string | null }) {
  return (
    <span className="inline-flex min-w-0 flex-wrap items-center gap-1.5">
      <Badge tone={outcome === 'ok' ? 'good' : 'bad'} className="font-mono">
        {outcome}
      </Badge>
      {detail ? <span className="text-sm break-all text-slate-700">{detail}</span> : null}
    </span>
  );
}

/** A crawl list answered with its provenance: loading, error (with retry), empty, or the items. */
export function ProvenancedList<D extends { data: { id: string }[]; provenance: ProvenanceDto }>(props: {
  query: UseQueryResult<D>;
  loading: { label: string; rows?: number };
  /** What an empty answer means, in words (it may read the answer's provenance). */
  empty: (data: D) => ReactNode;
  ordered?: boolean;
  tz: string;
  children: (item: D['data'][number]) => ReactNode;
}) {
  const { query: q, tz } = props;
  if (q.isPending) return <LoadingRows label={props.loading.label} rows={props.loading.rows} />;
  if (q.isError) return <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />;
  if (q.data.data.length === 0) return <>{props.empty(q.data)}</>;
  const items = q.data.data.map((item) => <li key={item.id}>{props.children(item)}</li>);
  return (
    <>
      {props.ordered ? <ol className="space-y-2">{items}</ol> : <ul className="space-y-2">{items}</ul>}
      <Provenance p={q.data.provenance} tz={tz} />
    </>
  );
}
