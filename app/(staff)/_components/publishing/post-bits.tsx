'use client';
// Pieces every posts screen shows the same way: status, platform, account health, alerts.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import Link from 'next/link';
import { toast } from 'sonner';
import { Badge, type Tone } from '@/app/_ui/primitives';
import { Button } from '@/app/_ui/button';
import { MediaThumb, mediaKindOf } from '@/app/_ui/media-thumb';
import { platformName } from '@/server/platforms/catalogue';
import type { PostListRowDto } from '@/server/posts/posts.schemas';
import { serverError, trpc } from '../../_lib/trpc';

const STATUS_TONE: Record<string, Tone> = {
  draft: 'neutral',
  scheduled: 'info',
  publishing: 'warn',
  published: 'good',
  partial_published: 'warn',
  failed: 'bad',
  cancelled: 'neutral',
  pending: 'neutral',
};

/** A status in words where its value is not one ("partial_published"). */
const STATUS_WORDS: Record<string, string> = { partial_published: 'partly published' };

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONE[status] ?? 'neutral'}>{STATUS_WORDS[status] ?? status.replace('_', ' ')}</Badge>;
}

export function ApprovalBadge({ approvalStatus }: { approvalStatus: string }) {
  if (approvalStatus === 'none') return null;
  const tone: Tone = approvalStatus === 'approved' ? 'good' : approvalStatus === 'rejected' ? 'bad' : 'warn';
  return <Badge tone={tone}>{approvalStatus === 'pending' ? 'awaiting approval' : approvalStatus}</Badge>;
}

/**
 * A post's state as one reading: a post held by approval is not also "scheduled" (it will
 * not go out until approved), so it shows what holds it; otherwise its status, and an
 * approval it passed.
 */
export function PostStateBadges({ status, approvalStatus }: { status: string; approvalStatus: string }) {
  const held = status === 'scheduled' || status === 'draft';
  if (held && approvalStatus === 'rejected') return <Badge tone="bad">rejected: needs changes</Badge>;
  if (held && approvalStatus === 'pending') return <ApprovalBadge approvalStatus="pending" />;
  return (
    <>
      <StatusBadge status={status} />
      <ApprovalBadge approvalStatus={approvalStatus} />
    </>
  );
}

export const platformLabel = platformName;

export function HealthBadge({ health }: { health: string }) {
  const tone: Tone = health === 'valid' ? 'good' : health === 'expiring_soon' ? 'warn' : health === 'expired' ? 'bad' : 'neutral';
  return <Badge tone={tone}>{health === 'expiring_soon' ? 'expiring soon' : health}</Badge>;
}

export function useInvalidateAll() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries();
}

/** The alert of an overdue or stuck post, its reason and the one action that resolves it. */
export function PostAlert({ post, compact }: { post: Pick<PostListRowDto, 'id' | 'alert'>; compact?: boolean }) {
  const invalidate = useInvalidateAll();
  const publish = useMutation({
    mutationFn: () => trpc.posts.publish.mutate({ id: post.id }),
    onSuccess: (res) => {
      toast.success(`Post ${res.data.status.replace('_', ' ')}`);
      void invalidate();
    },
    onError: (err) => toast.error(serverError(err).message),
  });
  const alert = post.alert;
  if (!alert) return null;
  const action =
    alert.action === 'publish_now' ? (
      <Button size="sm" variant="danger" disabled={publish.isPending} onClick={() => publish.mutate()}>
        {publish.isPending ? 'Publishing…' : 'Publish now'}
      </Button>
    ) : alert.action === 'review' ? (
      <Button size="sm" variant="secondary" asChild>
        <Link href="/approvals">Review</Link>
      </Button>
    ) : (
      <Button size="sm" variant="secondary" asChild>
        <Link href={`/compose?edit=${post.id}`}>Reschedule</Link>
      </Button>
    );
  return (
    <div
      role="status"
      data-testid="post-alert"
      className={
        compact
          ? 'flex flex-wrap items-center gap-2 text-sm text-red-800'
          : 'flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900'
      }
    >
      <AlertTriangle aria-hidden className="size-4 shrink-0" />
      <span className="font-semibold">{alert.kind === 'overdue' ? 'Overdue' : 'Stuck'}:</span>
      <span className="min-w-0 flex-1">{alert.reason}</span>
      {action}
    </div>
  );
}

/**
 * What a post carries, seen: an image as a thumbnail, a video as its first frame with a
 * play mark — wherever a post is shown for a decision (the approval queue, the post page).
 * Each opens the file in a new tab.
 */
export function MediaThumbnails({ urls, size = 72 }: { urls: readonly string[]; size?: number }) {
  if (urls.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label={`${urls.length} media`} data-testid="media-thumbnails">
      {urls.map((url, i) => {
        const label = `${mediaKindOf(url) === 'video' ? 'Video' : 'Image'} ${i + 1} of ${urls.length}`;
        return (
          <li key={`${url}-${i}`}>
            <a
              href={url}
              target="_blank"
              rel="noreferrer"
              className="block overflow-hidden rounded-md border border-slate-200 bg-slate-100"
              title={label}
              style={{ width: size, height: size }}
            >
              <MediaThumb url={url} label={label} className="h-full w-full object-cover" />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
