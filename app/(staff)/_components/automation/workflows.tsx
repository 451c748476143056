'use client';
// Workflow runs: the list with status and a readable summary, and the buttons that start a run
// where it makes sense (repurpose-post on a published post's page, weekly-digest on the
// dashboard). Runs go through workflows.run, the same procedure as POST /workflows/{id}/runs.
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Badge, Card, EmptyState, ErrorState, LoadingRows, PageHeader, type Tone } from '@/app/_ui/primitives';
import type { WorkflowRunDto } from '@/server/workflows/workflows.schemas';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { platformLabel, useInvalidateAll } from '../publishing/post-bits';
import { TimeAgo } from '@/app/_ui/time-ago';

const NAMES: Record<WorkflowRunDto['workflowId'], string> = {
  'repurpose-post': 'Repurpose a post',
  'weekly-digest': 'Weekly digest',
  'draft-replies': 'Draft replies',
};
const STATUS: Record<WorkflowRunDto['status'], Tone> = { queued: 'neutral', running: 'info', completed: 'good', failed: 'bad' };

/** Starts a run and takes the member to the runs list, where it is followed until it finishes. */
function useStartRun(label: string) {
  const router = useRouter();
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: Parameters<typeof trpc.workflows.run.mutate>[0]) => trpc.workflows.run.mutate(input),
    onSuccess: () => {
      toast.success(`${label} started`);
      void invalidate();
      router.push('/workflows');
    },
    onError: (e) => toast.error(serverError(e).message),
  });
}

export function RepurposeButton({ postId }: { postId: string }) {
  const run = useStartRun('Repurposing');
  return (
    <Button variant="secondary" onClick={() => run.mutate({ id: 'repurpose-post', postId })} disabled={run.isPending}>
      {run.isPending ? 'Starting…' : 'Repurpose for other accounts'}
    </Button>
  );
}

/** Starts draft-replies from a saved reply: drafts wait in the inbox for a member to send. */
export function useDraftRepliesRun() {
  return useStartRun('Drafting replies');
}

export function WeeklyDigestButton() {
  const run = useStartRun('The weekly digest');
  return (
    <Button variant="secondary" onClick={() => run.mutate({ id: 'weekly-digest', days: 7 })} disabled={run.isPending}>
      {run.isPending ? 'Starting…' : 'Weekly digest'}
    </Button>
  );
}

type Summary = NonNullable<WorkflowRunDto['summary']>;
const isRepurpose = (s: Summary): s is Extract<Summary, { sourcePostId: unknown }> => 'sourcePostId' in s;
const isDraftReplies = (s: Summary): s is Extract<Summary, { savedReplyId: unknown }> => 'savedReplyId' in s;

function RunSummary({ run }: { run: WorkflowRunDto }) {
  const { current } = useShell();
  if (run.error) return <p className="text-sm break-words text-red-800">{run.error.message}</p>;
  const s = run.summary;
  if (!s) return <p className="text-sm text-slate-600">{run.status === 'queued' ? 'Waiting to start.' : 'Working on it…'}</p>;
  if (isRepurpose(s)) {
    return (
      <div className="space-y-1 text-sm">
        <p>
          {s.drafts.length === 1 ? '1 draft' : `${s.drafts.length} drafts`} from{' '}
          <Link href={`/posts/${s.sourcePostId}`} className="underline">
            the post
          </Link>
          {s.skipped.length ? `; ${s.skipped.length} account${s.skipped.length === 1 ? '' : 's'} skipped` : ''}.
        </p>
        {s.drafts.length ? (
          <ul className="flex flex-wrap gap-2">
            {s.drafts.map((d) => (
              <li key={d.postId}>
                <Link href={`/posts/${d.postId}`} className="text-brand-700 underline">
                  {platformLabel(d.platform)} draft{d.shortened ? ' (shortened)' : ''}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        {s.skipped.map((k) => (
          <p key={k.connectionId} className="text-slate-600">
            {platformLabel(k.platform)}: {k.message}
          </p>
        ))}
      </div>
    );
  }
  if (isDraftReplies(s)) {
    return (
      <div className="space-y-1 text-sm">
        <p>
          {s.drafts.length === 1 ? '1 draft reply' : `${s.drafts.length} draft replies`} waiting in{' '}
          <Link href="/inbox" className="underline">
            the inbox
          </Link>
          {s.skipped.length ? `; ${s.skipped.length} item${s.skipped.length === 1 ? '' : 's'} skipped` : ''}.
        </p>
        {s.skipped.slice(0, 3).map((k) => (
          <p key={k.itemId} className="text-slate-600">
            {k.reason}
          </p>
        ))}
      </div>
    );
  }
  const published = Object.values(s.targets).reduce((n, t) => n + t.published, 0);
  const failed = Object.values(s.targets).reduce((n, t) => n + t.failed, 0);
  return (
    <div className="space-y-1 text-sm">
      <p>
        {formatIn(s.from, current.timeZone, 'd MMM')} – {formatIn(s.to, current.timeZone, 'd MMM')}: {s.posts.total} post{s.posts.total === 1 ? '' : 's'},{' '}
        {published} published, {failed} failed deliveries.
      </p>
      {Object.keys(s.targets).length ? (
        <p className="text-slate-600">
          {Object.entries(s.targets)
            .map(([platform, t]) => `${platformLabel(platform)} ${t.published}✓ ${t.failed}✗${t.pending ? ` ${t.pending} pending` : ''}`)
            .join(' · ')}
        </p>
      ) : null}
      {s.failures.slice(0, 3).map((f) => (
        <p key={f.targetId} className="break-words text-red-800">
          <Link href={`/posts/${f.postId}`} className="underline">
            {platformLabel(f.platform)}
          </Link>
          : {f.error ?? 'failed'}
        </p>
      ))}
    </div>
  );
}

export function Workflows({ initial }: { initial: WorkflowRunDto[] | null }) {
  const q = useQuery({
    queryKey: ['workflows.runs'],
    queryFn: async () => (await trpc.workflows.runs.query({ limit: 30 })).data,
    initialData: initial ?? undefined,
    // Follow unfinished runs; stop polling once everything shown has an outcome.
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === 'queued' || r.status === 'running') ? 1_500 : false),
  });
  return (
    <>
      <PageHeader title="Workflows">
        <WeeklyDigestButton />
      </PageHeader>
      <p className="mb-4 max-w-prose text-sm text-slate-600">
        Start <strong>Repurpose a post</strong> from a published post’s page: it drafts the post for your other accounts, fitted to each platform.{' '}
        <strong>Weekly digest</strong> sums up the last seven days of publishing.
      </p>
      {q.isPending ? (
        <LoadingRows rows={4} label="Loading workflow runs" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />
      ) : q.data.length === 0 ? (
        <EmptyState title="No runs yet">Runs started here, from a post, or by an assistant show up with their outcome.</EmptyState>
      ) : (
        <ul className="space-y-2">
          {q.data.map((r) => (
            <li key={r.runId} data-testid="workflow-run">
              <Card className="space-y-2">
                <div className="flex flex-wrap items-center gap-2">
                  <h2 className="flex-1 font-medium">{NAMES[r.workflowId]}</h2>
                  <Badge tone={STATUS[r.status]}>{r.status}</Badge>
                  <span className="text-xs text-slate-600">
                    <TimeAgo iso={r.createdAt} />
                  </span>
                </div>
                <RunSummary run={r} />
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
