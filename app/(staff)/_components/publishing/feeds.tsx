'use client';
// Feeds: the RSS and Atom feeds the workspace follows, how reading each is going (its last
// read, its error, paused after repeated failures), and following a new one. The form is the
// API's own schema; what only the server can tell (the URL refused by the outbound guard, not
// a feed) lands on the URL field.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Rss } from 'lucide-react';
import { useForm, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/app/_ui/button';
import { Badge, Card, EmptyState, ErrorState, FieldError, Input, Label, LoadingRows, PageHeader, Textarea } from '@/app/_ui/primitives';
import { TimeAgo } from '@/app/_ui/time-ago';
import type { ConnectionDto } from '@/server/connections/connections.schemas';
import { DEFAULT_TEMPLATE, FEED_PAUSE_AFTER, ZCreateFeedInput, type FeedDto } from '@/server/feeds/feeds.schemas';
import { useShell } from '../../_lib/providers';
import { serverError, trpc } from '../../_lib/trpc';
import { platformLabel, useInvalidateAll } from './post-bits';

const ZForm = z.object({
  url: ZCreateFeedInput.shape.url,
  connectionIds: ZCreateFeedInput.shape.connectionIds,
  mode: z.enum(['draft', 'queue']),
  template: z.string().trim().min(1, 'Write the post text, with {title}, {link} or {summary}'),
  useImage: z.boolean(),
});
type FormValues = z.infer<typeof ZForm>;

function FeedState({ feed }: { feed: FeedDto }) {
  if (feed.status === 'paused') return <Badge tone="bad">Paused</Badge>;
  if (feed.consecutiveFailures > 0) return <Badge tone="warn">Failing ({feed.consecutiveFailures} in a row)</Badge>;
  return <Badge tone="good">Active</Badge>;
}

function FollowFeed({ connections, onFollowed }: { connections: ConnectionDto[]; onFollowed: () => void }) {
  const form = useForm<FormValues>({
    resolver: zodResolver(ZForm),
    defaultValues: { url: '', connectionIds: [], mode: 'draft', template: DEFAULT_TEMPLATE, useImage: true },
  });
  const { errors } = form.formState;
  const follow = useMutation({
    mutationFn: (v: FormValues) => trpc.feeds.create.mutate(v),
    onSuccess: (res) => {
      toast.success(`Following ${res.data.title || res.data.url}`);
      form.reset();
      onFollowed();
    },
    onError: (err) => {
      const e = serverError(err);
      const field = e.field?.replace(/\[\d+\]$/, '');
      if (field === 'url' || field === 'connectionIds' || field === 'template') form.setError(field as FieldPath<FormValues>, { message: e.message });
      else toast.error(e.message);
    },
  });
  const usable = connections.filter((c) => c.tokenHealth !== 'expired');
  return (
    <Card className="mb-4">
      <h2 className="mb-3 font-semibold text-slate-900">Follow a feed</h2>
      <form className="space-y-3" noValidate onSubmit={form.handleSubmit((v) => follow.mutate(v))}>
        <div>
          <Label htmlFor="feed-url">Feed address (RSS or Atom)</Label>
          <Input
            id="feed-url"
            type="url"
            inputMode="url"
            placeholder="https://blog.example.com/feed.xml"
            aria-invalid={!!errors.url}
            aria-describedby="feed-url-error feed-url-hint"
            {...form.register('url')}
          />
          <p id="feed-url-hint" className="mt-1 text-xs text-slate-600">
            Read now and every 15 minutes. Items already in the feed are not posted; each later item becomes one post, once.
          </p>
          <FieldError id="feed-url-error">{errors.url?.message}</FieldError>
        </div>
        <fieldset aria-describedby="feed-accounts-error">
          <legend className="mb-1 text-sm font-medium text-slate-800">Post to</legend>
          {usable.length === 0 ? <p className="text-sm text-slate-600">Connect an account first.</p> : null}
          <div className="grid gap-2 sm:grid-cols-2">
            {usable.map((c) => (
              <label key={c.id} className="flex items-center gap-2 rounded border border-slate-200 p-2 text-sm">
                <input type="checkbox" value={c.id} {...form.register('connectionIds')} />
                <span className="min-w-0 truncate">
                  {c.displayName} <span className="text-xs text-slate-600">({platformLabel(c.platform)})</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError id="feed-accounts-error">{errors.connectionIds?.message ?? errors.connectionIds?.root?.message}</FieldError>
        </fieldset>
        <div>
          <Label htmlFor="feed-template">Post text</Label>
          <Textarea id="feed-template" rows={2} aria-invalid={!!errors.template} aria-describedby="feed-template-hint" {...form.register('template')} />
          <p id="feed-template-hint" className="mt-1 text-xs text-slate-600">
            {'{title}'}, {'{link}'} and {'{summary}'} are replaced by the item’s.
          </p>
          <FieldError>{errors.template?.message}</FieldError>
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-800">Each new item</legend>
          <div className="flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" value="draft" {...form.register('mode')} /> becomes a draft to review
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" value="queue" {...form.register('mode')} /> goes to the posting queue
            </label>
          </div>
        </fieldset>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register('useImage')} /> Attach the item’s image when it has one
        </label>
        <Button type="submit" disabled={follow.isPending}>
          {follow.isPending ? 'Reading the feed…' : 'Follow feed'}
        </Button>
      </form>
    </Card>
  );
}

function FeedRow({ feed, names, canWrite, onChanged }: { feed: FeedDto; names: Map<string, string>; canWrite: boolean; onChanged: () => void }) {
  const run = useMutation({
    mutationFn: async (action: 'check' | 'pause' | 'resume' | 'remove') => {
      if (action === 'check') {
        const r = (await trpc.feeds.check.mutate({ id: feed.id })).data;
        return r.postIds.length ? `${r.postIds.length} new item${r.postIds.length === 1 ? '' : 's'} posted` : 'No new items';
      }
      if (action === 'remove') {
        await trpc.feeds.delete.mutate({ id: feed.id });
        return 'Feed removed';
      }
      await trpc.feeds.update.mutate({ id: feed.id, status: action === 'pause' ? 'paused' : 'active' });
      return action === 'pause' ? 'Feed paused' : 'Feed resumed';
    },
    onSuccess: (message) => {
      toast.success(message);
      onChanged();
    },
    onError: (err) => {
      toast.error(serverError(err).message);
      onChanged();
    },
  });
  const title = feed.title || feed.url;
  return (
    <li data-testid="feed-row">
      <Card className="min-w-0 space-y-2 text-sm">
        <div className="flex flex-wrap items-center gap-2">
          <Rss aria-hidden className="size-4 text-orange-600" />
          <span className="min-w-0 font-medium break-words">{title}</span>
          <FeedState feed={feed} />
          <Badge>{feed.mode === 'queue' ? 'To the queue' : 'As drafts'}</Badge>
        </div>
        <p className="font-mono text-xs break-all text-slate-600">{feed.url}</p>
        <p className="text-slate-700">
          To {feed.connectionIds.map((id) => names.get(id) ?? 'a removed account').join(', ')} · “{feed.template}”
        </p>
        <p className="text-xs text-slate-600">{feed.lastCheckedAt ? <TimeAgo iso={feed.lastCheckedAt} prefix="Last read " /> : 'Not read yet'}</p>
        {feed.lastError ? (
          <div role="status" className="rounded-md bg-red-50 p-2 text-red-900" data-testid="feed-error">
            <p className="font-medium">
              {feed.status === 'paused' && feed.consecutiveFailures >= FEED_PAUSE_AFTER
                ? `Paused after ${feed.consecutiveFailures} failed reads in a row. The last one:`
                : 'The last read failed:'}
            </p>
            <p className="break-words">{feed.lastError}</p>
          </div>
        ) : null}
        {canWrite ? (
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="secondary"
              disabled={run.isPending || feed.status === 'paused'}
              onClick={() => run.mutate('check')}
              aria-label={`Check now: ${title}`}
            >
              {run.isPending && run.variables === 'check' ? 'Checking…' : 'Check now'}
            </Button>
            {feed.status === 'paused' ? (
              <Button size="sm" variant="secondary" disabled={run.isPending} onClick={() => run.mutate('resume')} aria-label={`Resume ${title}`}>
                Resume
              </Button>
            ) : (
              <Button size="sm" variant="secondary" disabled={run.isPending} onClick={() => run.mutate('pause')} aria-label={`Pause ${title}`}>
                Pause
              </Button>
            )}
            <Button
              size="sm"
              variant="secondary"
              disabled={run.isPending}
              onClick={() => {
                if (window.confirm(`Stop following ${title}? Posts already made from it stay.`)) run.mutate('remove');
              }}
              aria-label={`Stop following ${title}`}
            >
              Stop following
            </Button>
          </div>
        ) : null}
      </Card>
    </li>
  );
}

export function Feeds({ initial, connections }: { initial: FeedDto[] | null; connections: ConnectionDto[] }) {
  const { current } = useShell();
  const canWrite = current.scopes.includes('posts:write');
  const invalidate = useInvalidateAll();
  const q = useQuery({ queryKey: ['feeds.list'], queryFn: async () => (await trpc.feeds.list.query()).data, initialData: initial ?? undefined });
  const names = new Map(connections.map((c) => [c.id, c.displayName]));
  const refresh = () => {
    void q.refetch();
    void invalidate();
  };
  return (
    <>
      <PageHeader title="Feeds" />
      {canWrite ? <FollowFeed connections={connections} onFollowed={refresh} /> : null}
      <section aria-labelledby="feeds-list">
        <h2 id="feeds-list" className="mb-2 font-semibold text-slate-900">
          Followed feeds
        </h2>
        {q.isPending ? (
          <LoadingRows label="Loading feeds" />
        ) : q.isError ? (
          <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />
        ) : q.data.length === 0 ? (
          <EmptyState title="No feeds yet">Follow a blog’s feed and its new articles become posts.</EmptyState>
        ) : (
          <ul className="space-y-3">
            {q.data.map((feed) => (
              <FeedRow key={feed.id} feed={feed} names={names} canWrite={canWrite} onChanged={refresh} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
