'use client';
// One post: its content, schedule and approval, and the delivery log — each account's
// status, attempts, permalink and the platform's error verbatim — with retry of the failed
// accounts, publish, cancel and edit while the post's rules allow them.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ExternalLink } from 'lucide-react';
import Link from 'next/link';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import { Card, ErrorState, FieldError, Input, Label, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import { PostResultsCard } from './post-results-card';
import { EvergreenCard } from './evergreen-card';
import type { ConnectionDto } from '@/server/connections/connections.schemas';
import { EDITABLE_STATUSES, PUBLISHABLE_STATUSES, RETRYABLE_STATUSES } from '@/server/posts/post-states';
import type { PostDto } from '@/server/posts/posts.schemas';
import { explainFailure } from '@/server/posts/failure-guidance';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { MediaThumbnails, platformLabel, PostAlert, PostStateBadges, StatusBadge, useInvalidateAll } from './post-bits';
import { RepurposeButton } from '../automation/workflows';
import { CancelPostsButton, RestorePostButton } from './cancel-posts';
import { isDemoPermalink } from '@/server/shared/demo-post';

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
  const useAct = <A = void,>(verb: string, fn: (arg: A) => Promise<{ data: PostDto }>) =>
    useMutation({
      mutationFn: fn,
      onSuccess: (r) => {
        toast.success(`${verb}: ${r.data.status.replace('_', ' ')}`);
        void invalidate();
      },
      onError: (e) => toast.error(serverError(e).message),
    });
  // Accounts nobody knows the fate of are settled one by one in the delivery log, never by this button.
  const retry = useAct('Retried', (targetIds: string[] | null) =>
    targetIds ? trpc.posts.retryTargets.mutate({ id, targetIds }) : trpc.posts.retry.mutate({ id }),
  );
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
  const failed = post.targets.filter((t) => t.status === 'failed');
  const plainFailed = failed.filter((t) => !unconfirmed(t)).map((t) => t.id);
  const retryable = (RETRYABLE_STATUSES as readonly string[]).includes(post.status) && failed.length > 0;
  const busy = retry.isPending || publish.isPending;

  return (
    <>
      <PageHeader title="Post">
        {canRepurpose && (post.status === 'published' || post.status === 'partial_published') ? <RepurposeButton postId={post.id} /> : null}
        {canWrite && retryable && plainFailed.length ? (
          <Button onClick={() => retry.mutate(plainFailed.length === failed.length ? null : plainFailed)} disabled={busy}>
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
          {post.parts.length ? (
            <ol className="mt-3 space-y-2 border-l-2 border-slate-200 pl-3" aria-label="The thread’s later parts" data-testid="post-thread">
              {post.parts.map((part, i) => (
                <li key={i} className="text-sm">
                  <span className="block text-xs font-semibold text-slate-600">
                    Part {i + 2} of {post.parts.length + 1}
                  </span>
                  <span className="break-words whitespace-pre-wrap">{part.content}</span>
                  {part.mediaUrls.length ? (
                    <span className="mt-1 block">
                      <MediaThumbnails urls={part.mediaUrls} size={80} />
                    </span>
                  ) : null}
                </li>
              ))}
            </ol>
          ) : null}
          {Object.entries(post.variants ?? {}).map(([p, v]) => (
            <div key={p} className="mt-3 rounded-md bg-slate-50 p-2 text-sm">
              <p className="text-xs font-semibold text-slate-600">{platformLabel(p)} variant</p>
              <p className="break-words whitespace-pre-wrap">{v?.content}</p>
            </div>
          ))}
          {post.firstComment ? (
            <div className="mt-3 rounded-md bg-slate-50 p-2 text-sm" data-testid="post-first-comment">
              <p className="text-xs font-semibold text-slate-600">First comment</p>
              <p className="break-words whitespace-pre-wrap">{post.firstComment}</p>
            </div>
          ) : null}
          {post.mediaUrls.length ? (
            <div className="mt-3">
              <MediaThumbnails urls={post.mediaUrls} size={120} />
            </div>
          ) : null}
        </Card>
        <Card className="space-y-2 text-sm">
          <p className="flex flex-wrap gap-2">
            <PostStateBadges status={post.status} approvalStatus={post.approvalStatus} />
          </p>
          <p>
            <span className="text-slate-600">Scheduled: </span>
            {post.scheduledAt ? formatIn(post.scheduledAt, tz) : 'not scheduled'}
          </p>
          {post.publishedAt ? (
            <>
              <p>
                <span className="text-slate-600">Published: </span>
                {formatIn(post.publishedAt, tz)}
              </p>
              <p>
                <Link className="underline" href={`/inbox?postId=${post.id}`}>
                  Its comments in the inbox
                </Link>
              </p>
            </>
          ) : null}
          <p>
            <span className="text-slate-600">Created: </span>
            {formatIn(post.createdAt, tz)}
          </p>
          {post.approvalStatus !== 'none' ? <ApprovalTrail id={post.id} approvalStatus={post.approvalStatus} tz={tz} /> : null}
        </Card>
      </div>
      {post.status === 'published' || post.status === 'partial_published' ? <EvergreenCard postId={post.id} tz={tz} canWrite={canWrite} /> : null}
      {current.scopes.includes('analytics:read') ? <PostResultsCard postId={post.id} tz={tz} canCollect={current.scopes.includes('analytics:read')} /> : null}
      <h2 className="mt-6 mb-2 text-lg font-semibold">Delivery log</h2>
      <DeliveryLog
        post={post}
        names={names}
        tz={tz}
        canRetry={canWrite && retryable}
        canComment={canWrite && post.status !== 'publishing'}
        editable={canWrite && editable}
      />
    </>
  );
}

/**
 * Each account's delivery: status, attempts with their times, the permalink or the network's
 * error verbatim, what the error means and the one thing to do about it (reconnect, edit,
 * retry this account). A list of cards rather than a table, so it reads whole at 375 px.
 */
/** Failed without Herald knowing whether the network has the post (server/posts/delivery/unconfirmed.ts). */
const unconfirmed = (t: PostDto['targets'][number] | undefined) =>
  !!t && t.status === 'failed' && !t.confirmedAt && (!!t.settlement || (t.error ?? '').startsWith('Delivery was interrupted'));

/** "It went out": the member gives the address they found the post at. */
function MarkPublished({ postId, targetId, network, onDone }: { postId: string; targetId: string; network: string; onDone: () => unknown }) {
  const [open, setOpen] = useState(false);
  const [permalink, setPermalink] = useState('');
  const mark = useMutation({
    mutationFn: () => trpc.posts.markPublished.mutate({ id: postId, targetId, permalink: permalink.trim() }),
    onSuccess: () => {
      toast.success('Marked as published');
      setOpen(false);
      void onDone();
    },
  });
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)}>
        It went out
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={`Where is it on ${network}?`}
        description="Paste the post’s address from the network: the account’s delivery becomes published with it."
      >
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            mark.mutate();
          }}
        >
          <div>
            <Label htmlFor={`permalink-${targetId}`}>The post’s address</Label>
            <Input id={`permalink-${targetId}`} type="url" required value={permalink} onChange={(e) => setPermalink(e.target.value)} placeholder="https://" />
            {mark.error ? <FieldError>{serverError(mark.error).message}</FieldError> : null}
          </div>
          <Button type="submit" disabled={mark.isPending || !permalink.trim()}>
            Mark as published
          </Button>
        </form>
      </Dialog>
    </>
  );
}

/**
 * "It did not go out: send it": asks first, since sending a post the network already has puts
 * it in front of the client's audience twice.
 */
function SendAgain({
  account,
  network,
  sending,
  disabled,
  onSend,
}: {
  account: string;
  network: string;
  sending: boolean;
  disabled: boolean;
  onSend: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} disabled={disabled} aria-label={`It did not go out: send it to ${account}`}>
        {sending ? 'Sending…' : 'It did not go out: send it'}
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={`Send it to ${account} again?`}
        description={`Only when you looked on ${network} and the post is not there: if it did go out, the account will have it twice.`}
      >
        <div className="flex flex-wrap gap-2">
          <Button
            onClick={() => {
              setOpen(false);
              onSend();
            }}
          >
            I checked: send it
          </Button>
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Not yet
          </Button>
        </div>
      </Dialog>
    </>
  );
}

function DeliveryLog({
  post,
  names,
  tz,
  canRetry,
  canComment,
  editable,
}: {
  post: PostDto;
  names: Map<string, string>;
  tz: string;
  canRetry: boolean;
  /** May send a failed first comment again (a member, the post not mid-delivery). */
  canComment: boolean;
  editable: boolean;
}) {
  const invalidate = useInvalidateAll();
  // Keyed on what changes with a new attempt, so the history follows the post.
  const history = useQuery({
    queryKey: ['posts.history', post.id, post.targets.map((t) => `${t.attempts}:${t.status}`).join()],
    queryFn: async () => (await trpc.posts.history.query({ id: post.id })).data,
  });
  const retryOne = useMutation({
    mutationFn: (targetId: string) =>
      trpc.posts.retryTargets.mutate({
        id: post.id,
        targetIds: [targetId],
        ...(unconfirmed(post.targets.find((t) => t.id === targetId)) ? { confirmNotPublished: true as const } : {}),
      }),
    onSuccess: (r) => {
      toast.success(`Retried: ${r.data.status.replace('_', ' ')}`);
      void invalidate();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <ul className="space-y-3" aria-label="Delivery per account">
      {post.targets.map((t) => {
        const attempts = (history.data ?? []).filter((a) => a.targetId === t.id);
        const lastFailure = [...attempts].reverse().find((a) => a.outcome === 'failed');
        const guidance = t.status === 'failed' ? explainFailure(lastFailure?.code ?? null, t.error) : null;
        const name = names.get(t.connectionId) ?? t.connectionId;
        // What a stopped thread and a failed first comment share: sent again alone, by the same retry.
        const sendAgain = {
          network: platformLabel(t.platform),
          account: name,
          canSend: canComment,
          sending: retryOne.isPending && retryOne.variables === t.id,
          onSend: () => retryOne.mutate(t.id),
        };
        return (
          <li key={t.id} data-testid="target-row">
            <Card className="min-w-0 space-y-2 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="min-w-0 font-medium break-words">{name}</span>
                <span className="text-xs text-slate-600">{platformLabel(t.platform)}</span>
                <StatusBadge status={t.status} />
                <span className="text-xs text-slate-600 tabular-nums">
                  {t.attempts} attempt{t.attempts === 1 ? '' : 's'}
                </span>
              </div>
              {t.permalink ? (
                <a href={t.permalink} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-brand-700 underline">
                  {isDemoPermalink(t.permalink) ? 'See the demo post' : `View on ${platformLabel(t.platform)}`} <ExternalLink aria-hidden className="size-3" />
                </a>
              ) : null}
              {t.confirmedAt ? (
                <p className="text-sm text-slate-700" data-testid="target-confirmed">
                  Confirmed with {platformLabel(t.platform)} after an interruption, {formatIn(t.confirmedAt, tz)}
                  {t.settlement ? `: ${t.settlement}` : ''}
                </p>
              ) : null}
              {t.thread ? <ThreadOutcome parts={t.thread} {...sendAgain} /> : null}
              {t.firstComment ? <FirstCommentOutcome comment={t.firstComment} {...sendAgain} /> : null}
              {t.error ? (
                <div className="space-y-1">
                  {guidance ? (
                    <p className="text-slate-900" data-testid="failure-guidance">
                      {guidance.explanation}
                    </p>
                  ) : null}
                  <pre className="font-mono text-xs break-words whitespace-pre-wrap text-red-800" aria-label={`${platformLabel(t.platform)}’s error`}>
                    {t.error}
                  </pre>
                </div>
              ) : null}
              {t.status === 'failed' ? (
                <div className="flex flex-wrap gap-2">
                  {guidance?.action === 'reconnect' ? (
                    <Button size="sm" variant="secondary" asChild>
                      <Link href="/connections">Reconnect {name}</Link>
                    </Button>
                  ) : null}
                  {guidance?.action === 'edit' && editable ? (
                    <Button size="sm" variant="secondary" asChild>
                      <Link href={`/compose?edit=${post.id}`}>Edit the post</Link>
                    </Button>
                  ) : null}
                  {canRetry && unconfirmed(t) ? (
                    <>
                      <MarkPublished postId={post.id} targetId={t.id} network={platformLabel(t.platform)} onDone={invalidate} />
                      <SendAgain
                        account={name}
                        network={platformLabel(t.platform)}
                        sending={retryOne.isPending && retryOne.variables === t.id}
                        disabled={retryOne.isPending}
                        onSend={() => retryOne.mutate(t.id)}
                      />
                    </>
                  ) : canRetry ? (
                    <Button size="sm" onClick={() => retryOne.mutate(t.id)} disabled={retryOne.isPending} aria-label={`Retry this account: ${name}`}>
                      {retryOne.isPending && retryOne.variables === t.id ? 'Retrying…' : 'Retry this account'}
                    </Button>
                  ) : null}
                </div>
              ) : null}
              {attempts.length ? (
                <details>
                  <summary className="cursor-pointer text-xs text-slate-600">Attempt history ({attempts.length})</summary>
                  <ol className="mt-1 space-y-1 text-xs" data-testid="attempt-history">
                    {attempts.map((a, i) => (
                      <li key={`${a.at}-${i}`} className="break-words">
                        <span className="tabular-nums">{formatIn(a.at, tz, 'd MMM yyyy, HH:mm:ss')}</span> — {a.outcome}
                        {a.message ? `: ${a.message}` : ''}
                      </li>
                    ))}
                  </ol>
                </details>
              ) : null}
              {t.status === 'pending' && !t.error ? <p className="text-slate-600">Nothing sent yet.</p> : null}
            </Card>
          </li>
        );
      })}
    </ul>
  );
}

/** A thread's later parts on one account: each part's address as it lands, and where it stopped, with a way to continue from there. */
function ThreadOutcome(props: {
  parts: NonNullable<PostDto['targets'][number]['thread']>;
  network: string;
  account: string;
  canSend: boolean;
  sending: boolean;
  onSend: () => void;
}) {
  const { parts, network } = props;
  const stopped = parts.find((p) => p.status === 'failed');
  const total = parts.length + 1;
  return (
    <div className="space-y-1 rounded-md bg-slate-50 p-2" data-testid="thread-outcome">
      <ol className="space-y-1" aria-label={`The thread on ${network}`}>
        {parts.map((part) => (
          <li key={part.position} className="flex flex-wrap items-center gap-x-2">
            <span className="text-slate-800 tabular-nums">
              Part {part.position} of {total}:
            </span>
            {part.status === 'posted' ? (
              part.permalink ? (
                <a href={part.permalink} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-brand-700 underline">
                  {isDemoPermalink(part.permalink) ? 'posted, see the demo post' : `posted, view it on ${network}`}{' '}
                  <ExternalLink aria-hidden className="size-3" />
                </a>
              ) : (
                <span>posted</span>
              )
            ) : (
              <span className={part.status === 'failed' ? 'text-red-800' : 'text-slate-600'}>
                {part.status === 'failed' ? 'not posted' : part.status === 'posting' ? 'being posted…' : 'waits for the part before'}
              </span>
            )}
            {part.confirmedAt ? <span className="text-xs text-slate-600">(confirmed with {network} after an interruption)</span> : null}
          </li>
        ))}
      </ol>
      {stopped?.error ? (
        <pre className="font-mono text-xs break-words whitespace-pre-wrap text-red-800" aria-label={`${network}’s answer to part ${stopped.position}`}>
          {stopped.error}
        </pre>
      ) : null}
      {stopped && props.canSend ? (
        <Button
          size="sm"
          variant="secondary"
          onClick={props.onSend}
          disabled={props.sending}
          aria-label={`Continue from part ${stopped.position}: ${props.account}`}
        >
          {props.sending ? 'Sending…' : `Continue from part ${stopped.position}`}
        </Button>
      ) : null}
    </div>
  );
}

/** The post's first comment on one account: posted (with its address), under way, or the network's refusal and a way to send it again. */
function FirstCommentOutcome(props: {
  comment: NonNullable<PostDto['targets'][number]['firstComment']>;
  network: string;
  account: string;
  canSend: boolean;
  sending: boolean;
  onSend: () => void;
}) {
  const { comment, network } = props;
  return (
    <div className="space-y-1 rounded-md bg-slate-50 p-2" data-testid="first-comment">
      <p className="text-slate-800">
        {comment.status === 'posted' ? (
          <>
            First comment posted
            {comment.permalink ? (
              <>
                {' — '}
                <a href={comment.permalink} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-brand-700 underline">
                  {isDemoPermalink(comment.permalink) ? 'see it on the demo post' : `view it on ${network}`} <ExternalLink aria-hidden className="size-3" />
                </a>
              </>
            ) : null}
          </>
        ) : comment.status === 'posting' ? (
          'First comment: being posted…'
        ) : (
          `The first comment did not go out; the post itself is on ${network}.`
        )}
      </p>
      {comment.status === 'failed' && comment.error ? (
        <pre className="font-mono text-xs break-words whitespace-pre-wrap text-red-800" aria-label={`${network}’s answer to the first comment`}>
          {comment.error}
        </pre>
      ) : null}
      {comment.status === 'failed' && props.canSend ? (
        <Button size="sm" variant="secondary" onClick={props.onSend} disabled={props.sending} aria-label={`Send the first comment again: ${props.account}`}>
          {props.sending ? 'Sending…' : 'Send the first comment again'}
        </Button>
      ) : null}
    </div>
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
