'use client';
// One crawl site: its tracked pages with the last visit's outcome exactly as the crawler gave
// it, adding and removing pages.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { Button } from '@/app/_ui/button';
import { Card, EmptyState, FieldError, Input, Label, PageHeader } from '@/app/_ui/primitives';
import { ZAddPageInput } from '@/server/crawl/crawl.schemas';
import { LIMIT_MAX } from '@/server/shared/analytics-window';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { ConfirmRemove } from '@/app/_ui/confirm-remove';
import { Outcome, ProvenancedList } from './crawl-bits';

type AddPage = z.infer<typeof ZAddPageInput>;

export function CrawlSitePages({ siteId }: { siteId: string }) {
  const { current } = useShell();
  const tz = current.timeZone;
  const sites = useQuery({ queryKey: ['crawl.sites'], queryFn: () => trpc.crawl.sites.query() });
  const q = useQuery({ queryKey: ['crawl.pages', siteId], queryFn: () => trpc.crawl.pages.query({ siteId, limit: LIMIT_MAX }) });
  const site = sites.data?.data.find((s) => s.id === siteId);
  const form = useForm<AddPage>({ resolver: zodResolver(ZAddPageInput), defaultValues: { siteId, url: '' } });
  const { errors } = form.formState;
  const add = useMutation({
    mutationFn: (v: AddPage) => trpc.crawl.addPage.mutate(v),
    onSuccess: () => {
      toast.success('Page added');
      form.reset({ siteId, url: '' });
      void q.refetch();
    },
    onError: (err) => {
      const e = serverError(err);
      if (e.field === 'url') form.setError('url', { message: e.message });
      else toast.error(e.message);
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => trpc.crawl.removePage.mutate({ id }),
    onSuccess: () => {
      toast.success('Page removed');
      void q.refetch();
    },
    onError: (err) => toast.error(serverError(err).message),
  });

  return (
    <>
      <PageHeader title={site ? site.name : 'Crawl site'} />
      <p className="mb-3 text-sm">
        <Link href="/crawl" className="text-brand-700 underline">
          All sites
        </Link>
        {site ? <span className="ml-2 break-all text-slate-600">{site.origin}</span> : null}
      </p>
      <Card className="mb-4">
        <form className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start" noValidate onSubmit={form.handleSubmit((v) => add.mutate(v))}>
          <div>
            <Label htmlFor="page-url">Track a page of this site</Label>
            <Input id="page-url" type="url" placeholder={site ? `${site.origin}/pricing` : 'https://'} aria-invalid={!!errors.url} {...form.register('url')} />
            <FieldError>{errors.url?.message}</FieldError>
          </div>
          <Button type="submit" className="sm:mt-6" disabled={add.isPending}>
            {add.isPending ? 'Adding…' : 'Add page'}
          </Button>
        </form>
      </Card>
      <section aria-labelledby="pages-heading" className="space-y-2">
        <h2 id="pages-heading" className="font-semibold text-slate-900">
          Tracked pages
        </h2>
        <ProvenancedList
          query={q}
          loading={{ label: 'Loading pages' }}
          empty={() => <EmptyState title="No tracked pages">Add the pages of this site Herald should watch.</EmptyState>}
          tz={tz}
        >
          {(p) => (
            <Card className="flex flex-wrap items-start gap-3" data-testid="crawl-page">
              <div className="min-w-0 flex-1 space-y-1">
                <Link href={`/crawl/pages/${p.id}?site=${siteId}`} className="font-medium break-all text-brand-700 underline">
                  {p.url}
                </Link>
                {p.lastVisit ? (
                  <div className="flex flex-wrap items-center gap-2 text-sm">
                    <span className="text-slate-600">Last visit {formatIn(p.lastVisit.visitedAt, tz)}:</span>
                    <Outcome outcome={p.lastVisit.outcome} detail={p.lastVisit.detail} />
                  </div>
                ) : (
                  <p className="text-sm text-slate-600">Not visited yet.</p>
                )}
              </div>
              <ConfirmRemove
                what={p.url}
                consequence="Its visits and detected changes are removed too."
                pending={remove.isPending}
                onConfirm={() => remove.mutate(p.id)}
              />
            </Card>
          )}
        </ProvenancedList>
      </section>
    </>
  );
}
