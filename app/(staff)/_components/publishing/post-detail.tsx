'use client';
// One post: its content, schedule and approval, and the delivery log — each account's
// status, attempts, permalink and the platform's error verbatim — with retry of the failed
// accounts, publish, cancel and edit while the post's rules allow them.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import Link from 'next/link';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Card, ErrorState, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import type { ConnectionDto } from '@/server/connections/connections.schemas';
import { EDITABLE_STATUSES, PUBLISHABLE_STATUSES, RETRYABLE_STATUSES } from '@/server/posts/post-states';
import type { PostDto } from '@/server/posts/posts.schemas';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { ApprovalBadge, MediaThumbnails, platformLabel, PostAlert, StatusBadge, useInvalidateAll } from './post-bits';
import { RepurposeButton } from '../automation/workflows';
import { CancelPostsButton, RestorePostButton } from './cancel-posts';

export function PostDetail({ id, initial, connections }: { id: string; initial: PostDto | null; connections: ConnectionDto[] }) {
  const { current } = useShell();
  const tz = current.timeZone;
  const invalidate = useInvalidateAll();
  const q = useQuery({
    queryKey: ['posts.get', id],
    queryFn: async () => (await trpc.posts.get.query({ id })).data,
    initialData: initial ?? undefined,
    // While it is going out, follow it.
    refetchInterval: (query) => (query.state.data?.status === 'publishing' ? 1500 : false),
  });
  const useAct = (verb: string, fn: () => Promise<{ data: PostDto }>) =>
    useMutation({
      mutationFn: fn,
      onSuccess: (r) => {
        toast.success(`${verb}: ${r.data.status.replace('_', ' ')}`);
        void invalidate();
      },
      onError: (e) => toast.error(serverError(e).message),
    });
  const retry = useAct('Retried', () => trpc.posts.retry.mutate({ id }));
  const publish = useAct('Published', () => trpc.posts.publish.mutate({ id }));

  if (q.isPending) return <LoadingRows rows={5} label="Loading the post" />;
  if (q.isError) {
    const e = serverError(q.error);
    return <ErrorState title={e.code === 'POST_NOT_FOUND' ? 'Post not found' : undefined} message={e.message} onRetry={() => q.refetch()} />;
  }
  const post = q.data;
  const names = new Map(connections.map((c) => [c.id, c.displayName]));
  const canWrite = current.scopes.includes('posts:write');
  const canRepurpose = current.scopes.includes('workflows:run');
  const editable = (EDITABLE_STATUSES as readonly string[]).includes(post.status);
  const publishable =
    (PUBLISHABLE_STATUSES as readonly string[]).includes(post.status) && post.approvalStatus !== 'pending' && post.approvalStatus !== 'rejected';
  const retryable = (RETRYABLE_STATUSES as readonly string[]).includes(post.status) && post.targets.some((t) => t.status === 'failed');
  const busy = retry.isPending || publish.isPending;

  return (
    <>
      <PageHeader title="Post">
        {canRepurpose && (post.status === 'published' || post.status === 'partial_published') ? <RepurposeButton postId={post.id} /> : null}
        {canWrite && retryable ? (
          <Button onClick={() => retry.mutate()} disabled={busy}>
            {retry.isPending ? 'Retrying…' : 'Retry failed accounts'}
          </Button>
        ) : null}
        {canWrite && publishable && post.status !== 'failed' ? (
          <Button variant="secondary" onClick={() => publish.mutate()} disabled={busy}>
            {publish.isPending ? 'Publishing…' : 'Publish now'}
          </Button>
        ) : null}
        {canWrite && editable ? (
          <>
            <Button variant="secondary" asChild>
              <Link href={`/compose?edit=${post.id}`}>Edit</Link>
            </Button>
            <CancelPostsButton
              posts={[post]}
              cancel={async () => {
                await trpc.posts.cancel.mutate({ id: post.id });
                return { cancelled: [post.id], refused: [] };
              }}
            />
          </>
        ) : null}
        {canWrite && post.status === 'cancelled' ? <RestorePostButton id={post.id} /> : null}
      </PageHeader>
      {post.alert ? (
        <div className="mb-4">
          <PostAlert post={post} />
        </div>
      ) : null}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_300px]">
        <Card className="min-w-0">
          <p className="break-words whitespace-pre-wrap">{post.content}</p>
          {Object.entries(post.variants ?? {}).map(([p, v]) => (
            <div key={p} className="mt-3 rounded-md bg-slate-50 p-2 text-sm">
              <p className="text-xs font-semibold text-slate-600">{platformLabel(p)} variant</p>
              <p className="break-words whitespace-pre-wrap">{v?.content}</p>
            </div>
          ))}
          {post.mediaUrls.length ? (
            <div className="mt-3">
              <MediaThumbnails urls={post.mediaUrls} size={120} />
            </div>
          ) : null}
        </Card>
        <Card className="space-y-2 text-sm">
          <p className="flex flex-wrap gap-2">
            <StatusBadge status={post.status} />
            <ApprovalBadge approvalStatus={post.approvalStatus} />
          </p>
          <p>
            <span className="text-slate-600">Scheduled: </span>
            {post.scheduledAt ? formatIn(post.scheduledAt, tz) : 'not scheduled'}
          </p>
          {post.publishedAt ? (
            <p>
              <span className="text-slate-600">Published: </span>
              {formatIn(post.publishedAt, tz)}
            </p>
          ) : null}
          <p>
            <span className="text-slate-600">Created: </span>
            {formatIn(post.createdAt, tz)}
          </p>
          {post.approvalStatus !== 'none' ? <ApprovalTrail id={post.id} approvalStatus={post.approvalStatus} tz={tz} /> : null}
        </Card>
      </div>
      <h2 className="mt-6 mb-2 text-lg font-semibold">Delivery log</h2>
      <Card className="overflow-x-auto p-0">
        <table className="w-full min-w-[560px] text-left text-sm">
          <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">
                Account
              </th>
              <th scope="col" className="px-3 py-2">
                Status
              </th>
              <th scope="col" className="px-3 py-2">
                Attempts
              </th>
              <th scope="col" className="px-3 py-2">
                Outcome
              </th>
            </tr>
          </thead>
          <tbody>
            {post.targets.map((t) => (
              <tr key={t.id} className="border-b border-slate-100 align-top last:border-b-0" data-testid="target-row">
                <td className="px-3 py-2">
                  <span className="font-medium">{names.get(t.connectionId) ?? t.connectionId}</span>
                  <span className="block text-xs text-slate-600">{platformLabel(t.platform)}</span>
                </td>
                <td className="px-3 py-2">
                  <StatusBadge status={t.status} />
                </td>
                <td className="px-3 py-2 tabular-nums">{t.attempts}</td>
                <td className="px-3 py-2">
                  {t.permalink ? (
                    <a href={t.permalink} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-brand-700 underline">
                      View on {platformLabel(t.platform)} <ExternalLink aria-hidden className="size-3" />
                    </a>
                  ) : null}
                  {t.error ? <pre className="mt-1 font-mono text-xs break-words whitespace-pre-wrap text-red-800">{t.error}</pre> : null}
                  {!t.permalink && !t.error ? <span className="text-slate-600">—</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </>
  );
}

/** Who asked for approval and who decided (with a rejection's reason): what to fix before editing. */
function ApprovalTrail({ id, approvalStatus, tz }: { id: string; approvalStatus: string; tz: string }) {
  // Keyed on the status, so an approval or rejection elsewhere shows up with the post's refresh.
  const q = useQuery({ queryKey: ['posts.approval', id, approvalStatus], queryFn: async () => (await trpc.posts.approval.query({ id })).data });
  if (!q.data) return null;
  const a = q.data;
  return (
    <div className="space-y-1 border-t border-slate-100 pt-2" data-testid="approval-trail">
      {a.requestedBy ? (
        <p>
          <span className="text-slate-600">Approval asked by: </span>
          {a.requestedBy}
          {a.requestedAt ? `, ${formatIn(a.requestedAt, tz)}` : null}
        </p>
      ) : null}
      {a.decidedBy ? (
        <p>
          <span className="text-slate-600">{a.approvalStatus === 'rejected' ? 'Rejected by: ' : 'Approved by: '}</span>
          {a.decidedBy}
          {a.decidedAt ? `, ${formatIn(a.decidedAt, tz)}` : null}
        </p>
      ) : null}
      {a.rejectionReason ? (
        <p className="rounded-md bg-red-50 p-2 break-words text-red-900">
          <span className="font-medium">Reason: </span>
          {a.rejectionReason}
        </p>
      ) : null}
    </div>
  );
}
