'use client';
// Crawl: the sites Herald crawls for this workspace, their crawl state, adding and removing.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Link from 'next/link';
import { useForm, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { Button } from '@/app/_ui/button';
import { Badge, Card, EmptyState, FieldError, Input, Label, PageHeader } from '@/app/_ui/primitives';
import { ZAddSiteInput } from '@/server/crawl/crawl.schemas';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { ConfirmRemove } from '@/app/_ui/confirm-remove';
import { ProvenancedList } from './crawl-bits';

type SitesData = Awaited<ReturnType<typeof trpc.crawl.sites.query>>;
type AddSite = z.infer<typeof ZAddSiteInput>;

export function CrawlSites({ initial }: { initial: SitesData | null }) {
  const { current } = useShell();
  const tz = current.timeZone;
  const [started, setStarted] = useState<number | null>(null);
  const q = useQuery({
    queryKey: ['crawl.sites'],
    queryFn: () => trpc.crawl.sites.query(),
    initialData: initial ?? undefined,
    // While a crawl runs (or one was just asked for), follow it.
    refetchInterval: (query) =>
      query.state.data?.data.some((s) => s.state.status === 'crawling') || (started !== null && Date.now() - started < 60_000) ? 2_000 : false,
  });
  const form = useForm<AddSite>({ resolver: zodResolver(ZAddSiteInput), defaultValues: { name: '', url: '' } });
  const { errors } = form.formState;
  const add = useMutation({
    mutationFn: (v: AddSite) => trpc.crawl.addSite.mutate(v),
    onSuccess: (res) => {
      toast.success(`${res.data.origin} added`);
      form.reset();
      void q.refetch();
    },
    onError: (err) => {
      const e = serverError(err);
      if (e.field === 'name' || e.field === 'url') form.setError(e.field as FieldPath<AddSite>, { message: e.message });
      else toast.error(e.message);
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => trpc.crawl.removeSite.mutate({ id }),
    onSuccess: () => {
      toast.success('Site removed');
      void q.refetch();
    },
    onError: (err) => toast.error(serverError(err).message),
  });

  const crawlNow = useMutation({
    mutationFn: (id: string) => trpc.crawl.crawlNow.mutate({ id }),
    onSuccess: () => {
      setStarted(Date.now());
      toast.success('Crawl started: the visits appear here as they finish');
      void q.refetch();
    },
    onError: (err) => toast.error(serverError(err).message),
  });

  return (
    <>
      <PageHeader title="Crawl" />
      <Card className="mb-4">
        <h2 className="mb-3 font-semibold text-slate-900">Add a site</h2>
        <form className="grid gap-3 sm:grid-cols-[1fr_2fr_auto] sm:items-start" noValidate onSubmit={form.handleSubmit((v) => add.mutate(v))}>
          <div>
            <Label htmlFor="site-name">Name</Label>
            <Input id="site-name" aria-invalid={!!errors.name} {...form.register('name')} />
            <FieldError>{errors.name?.message}</FieldError>
          </div>
          <div>
            <Label htmlFor="site-url">Address (https)</Label>
            <Input id="site-url" type="url" placeholder="https://www.example.com" aria-invalid={!!errors.url} {...form.register('url')} />
            <FieldError>{errors.url?.message}</FieldError>
          </div>
          <Button type="submit" className="sm:mt-6" disabled={add.isPending}>
            {add.isPending ? 'Adding…' : 'Add site'}
          </Button>
        </form>
      </Card>
      <section aria-labelledby="sites-heading" className="space-y-2">
        <h2 id="sites-heading" className="font-semibold text-slate-900">
          Sites
        </h2>
        <ProvenancedList
          query={q}
          loading={{ label: 'Loading sites' }}
          empty={() => <EmptyState title="No sites yet">Add a site, then the pages of it Herald should watch.</EmptyState>}
          tz={tz}
        >
          {(s) => (
            <Card className="flex flex-wrap items-center gap-3" data-testid="crawl-site">
              <div className="min-w-0 flex-1">
                <Link href={`/crawl/sites/${s.id}`} className="font-medium text-brand-700 underline">
                  {s.name}
                </Link>
                <p className="text-sm break-all text-slate-600">{s.origin}</p>
                <p className="text-xs text-slate-600">
                  {s.pageCount} page{s.pageCount === 1 ? '' : 's'} · last visit {s.state.lastVisitAt ? formatIn(s.state.lastVisitAt, tz) : 'never'}
                  {s.state.lastCrawlStartedAt ? ` · last run: ${s.state.visitsInLastRun} visits, ${s.state.failedInLastRun} failed` : ''}
                </p>
              </div>
              <Badge tone={s.state.status === 'crawling' ? 'info' : 'neutral'}>{s.state.status.replace('_', ' ')}</Badge>
              <Button
                size="sm"
                variant="secondary"
                disabled={crawlNow.isPending || s.state.status === 'crawling' || s.pageCount === 0}
                onClick={() => crawlNow.mutate(s.id)}
                aria-label={`Crawl now: ${s.name}`}
              >
                Crawl now
              </Button>
              <ConfirmRemove
                what={s.name}
                consequence="Its tracked pages, their visits and detected changes are removed too."
                pending={remove.isPending}
                onConfirm={() => remove.mutate(s.id)}
              />
            </Card>
          )}
        </ProvenancedList>
      </section>
    </>
  );
}
