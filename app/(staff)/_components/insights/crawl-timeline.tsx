'use client';
// One tracked page: every visit (those that returned nothing included) and the changes
// detected between successful visits; an empty list of changes says in words what it means.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge, Card, EmptyState, ErrorState, PageHeader } from '@/app/_ui/primitives';
import { EMPTY_MEANS_WORDS } from '@/server/crawl/crawl.schemas';
import { LIMIT_MAX } from '@/server/shared/analytics-window';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { trpc } from '../../_lib/trpc';
import { CHANGE_FIELD_LABELS, Outcome, ProvenancedList } from './crawl-bits';

export function CrawlPageTimeline({ pageId, siteId }: { pageId: string; siteId: string | null }) {
  const { current } = useShell();
  const tz = current.timeZone;
  const timeline = useQuery({ queryKey: ['crawl.timeline', pageId], queryFn: () => trpc.crawl.timeline.query({ pageId, limit: LIMIT_MAX }) });
  const pages = useQuery({
    queryKey: ['crawl.pages', siteId],
    queryFn: () => trpc.crawl.pages.query({ siteId: siteId!, limit: LIMIT_MAX }),
    enabled: siteId !== null,
  });
  const changes = useQuery({
    queryKey: ['crawl.changes', siteId, pageId],
    queryFn: () => trpc.crawl.changes.query({ siteId: siteId!, pageId, limit: LIMIT_MAX }),
    enabled: siteId !== null,
  });
  const page = pages.data?.data.find((p) => p.id === pageId);

  return (
    <>
      <PageHeader title="Page history" />
      <p className="mb-3 text-sm">
        <Link href={siteId ? `/crawl/sites/${siteId}` : '/crawl'} className="text-brand-700 underline">
          Back to the site
        </Link>
        {page ? <span className="ml-2 break-all text-slate-600">{page.url}</span> : null}
      </p>
      <div className="grid min-w-0 gap-4 lg:grid-cols-2">
        <section aria-labelledby="changes-heading" className="min-w-0 space-y-2">
          <h2 id="changes-heading" className="font-semibold text-slate-900">
            Detected changes
          </h2>
          {siteId === null ? (
            <ErrorState message="Open this page from its site to see its changes." />
          ) : (
            <ProvenancedList
              query={changes}
              loading={{ label: 'Loading changes', rows: 2 }}
              empty={(d) => (
                <EmptyState title="No changes in this window">
                  <span data-testid="empty-means">{d.provenance.emptyMeans ? EMPTY_MEANS_WORDS[d.provenance.emptyMeans] : null}</span> (
                  {d.provenance.window.from} to {d.provenance.window.to}, {d.provenance.visitsInWindow} visits)
                </EmptyState>
              )}
              tz={tz}
            >
              {(c) => (
                <Card className="space-y-1" data-testid="crawl-change">
                  <Link href={`/crawl/changes/${c.id}`} className="font-medium text-brand-700 underline">
                    Changed {formatIn(c.detectedAt, tz)}
                  </Link>
                  <div className="flex flex-wrap gap-1">
                    {c.fields.map((f) => (
                      <Badge key={f}>{CHANGE_FIELD_LABELS[f]}</Badge>
                    ))}
                  </div>
                  <p className="text-xs text-slate-600">
                    +{c.diffSummary.addedWords} / −{c.diffSummary.removedWords} words
                  </p>
                </Card>
              )}
            </ProvenancedList>
          )}
        </section>
        <section aria-labelledby="visits-heading" className="min-w-0 space-y-2">
          <h2 id="visits-heading" className="font-semibold text-slate-900">
            Every visit (newest first)
          </h2>
          <ProvenancedList
            query={timeline}
            loading={{ label: 'Loading visits' }}
            empty={() => <EmptyState title="Not visited yet">The crawl runs every six hours.</EmptyState>}
            ordered
            tz={tz}
          >
            {(v) => (
              <Card className="space-y-1 py-3" data-testid="crawl-visit">
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <span className="text-slate-600">{formatIn(v.startedAt, tz)}</span>
                  <Outcome outcome={v.outcome} detail={v.detail} />
                </div>
                {v.extracted ? (
                  <p className="text-sm break-words text-slate-800">
                    <span className="font-medium">{v.extracted.title ?? '(no title)'}</span> · {v.extracted.textLength} characters of text
                  </p>
                ) : (
                  <p className="text-sm text-slate-600">Returned nothing to read.</p>
                )}
              </Card>
            )}
          </ProvenancedList>
        </section>
      </div>
    </>
  );
}
