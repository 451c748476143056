'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Card, EmptyState, ErrorState, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import { Button } from '@/app/_ui/button';
import type { DashboardDto } from '@/server/app/dashboard';
import type { PostListRowDto } from '@/server/posts/posts.schemas';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { HealthBadge, platformLabel, PostAlert, StatusBadge } from '../publishing/post-bits';
import { WeeklyDigestButton } from '../automation/workflows';
import { FirstSteps } from './first-steps';

function PostLine({ post, tz }: { post: PostListRowDto; tz: string }) {
  return (
    <li className="flex flex-wrap items-center gap-2 border-t border-slate-100 py-2 first:border-t-0">
      <span className="w-28 shrink-0 text-sm text-slate-600 tabular-nums">{post.scheduledAt ? formatIn(post.scheduledAt, tz, 'EEE HH:mm') : '—'}</span>
      <Link href={`/posts/${post.id}`} className="min-w-0 flex-1 truncate text-sm font-medium text-slate-900 hover:underline">
        {post.content}
      </Link>
      <StatusBadge status={post.status} />
    </li>
  );
}

export function Dashboard({ initial }: { initial: DashboardDto | null }) {
  const { current } = useShell();
  const q = useQuery({ queryKey: ['app.dashboard'], queryFn: async () => (await trpc.app.dashboard.query()).data, initialData: initial ?? undefined });
  return (
    <>
      <PageHeader title="Dashboard">
        {current.scopes.includes('workflows:run') ? <WeeklyDigestButton /> : null}
        <Button asChild>
          <Link href="/compose">New post</Link>
        </Button>
      </PageHeader>
      <FirstSteps />
      {q.isPending ? (
        <LoadingRows rows={6} label="Loading the dashboard" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />
      ) : (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <Card className="lg:col-span-2">
            <h2 className="mb-2 font-semibold">Needs attention</h2>
            {q.data.attention.length === 0 ? (
              <p className="text-sm text-slate-600">Nothing overdue, stuck or failed. </p>
            ) : (
              <ul className="space-y-2">
                {q.data.attention.map((p) => (
                  <li key={p.id} className="rounded-md border border-slate-200 p-2">
                    <div className="flex flex-wrap items-center gap-2">
                      <Link href={`/posts/${p.id}`} className="min-w-0 flex-1 truncate text-sm font-medium hover:underline">
                        {p.content}
                      </Link>
                      <StatusBadge status={p.status} />
                    </div>
                    {p.alert ? (
                      <div className="mt-2">
                        <PostAlert post={p} compact />
                      </div>
                    ) : p.error ? (
                      <p className="mt-1 text-sm break-words text-red-800">{p.error}</p>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Card>
            <h2 className="mb-2 font-semibold">Today</h2>
            {q.data.today.posts.length === 0 ? (
              <EmptyState title="Nothing scheduled today" />
            ) : (
              <ul>
                {q.data.today.posts.map((p) => (
                  <PostLine key={p.id} post={p} tz={current.timeZone} />
                ))}
              </ul>
            )}
          </Card>
          <Card>
            <h2 className="mb-2 font-semibold">This week</h2>
            <p className="mb-2 text-sm text-slate-600">
              {q.data.week.scheduled} scheduled · {q.data.week.published} published ·{' '}
              <Link href="/approvals" className="text-brand-700 underline">
                {q.data.approvalsWaiting} waiting for approval
              </Link>
            </p>
            {q.data.week.posts.length === 0 ? (
              <EmptyState title="Nothing this week yet">
                <Link href="/compose" className="text-brand-700 underline">
                  Compose a post
                </Link>
              </EmptyState>
            ) : (
              <ul>
                {q.data.week.posts.slice(0, 12).map((p) => (
                  <PostLine key={p.id} post={p} tz={current.timeZone} />
                ))}
              </ul>
            )}
          </Card>
          <Card className="lg:col-span-2">
            <h2 className="mb-2 font-semibold">Connected accounts</h2>
            {q.data.connections.length === 0 ? (
              <EmptyState title="No accounts connected" />
            ) : (
              <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
                {q.data.connections.map((c) => (
                  <li key={c.id} className="flex items-center gap-2 rounded-md border border-slate-200 p-2 text-sm">
                    <span className="min-w-0 flex-1 truncate">
                      {c.displayName} <span className="text-slate-600">· {platformLabel(c.platform)}</span>
                    </span>
                    <HealthBadge health={c.tokenHealth} />
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      )}
    </>
  );
}
