'use client';
// Week and month calendar in the workspace's time zone. Dragging a post to another day keeps
// its time of day and reschedules it through posts.update — the API's reschedule rules,
// approval included (a changed post may go back to pending; the warning says so).
import { DndContext, KeyboardSensor, PointerSensor, useDraggable, useDroppable, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { addMonths, format, isSameMonth, startOfMonth } from 'date-fns';
import { ChevronLeft, ChevronRight, GripVertical } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { cn } from '@/app/_ui/cn';
import { ErrorState, PageHeader, Skeleton } from '@/app/_ui/primitives';
import { EDITABLE_STATUSES } from '@/server/posts/post-states';
import type { PostListRowDto } from '@/server/posts/posts.schemas';
import { calendarRange } from '../../_lib/calendar-range';
import { useShell } from '../../_lib/providers';
import { formatIn, fromLocalInput } from '../../_lib/time';
import { zoneLabel } from '@/server/shared/time-zone';
import { serverError, trpc } from '../../_lib/trpc';
import { MediaThumb } from '@/app/_ui/media-thumb';
import { useInvalidateAll } from './post-bits';

type View = 'week' | 'month';

const CHIP_TONE: Record<string, string> = {
  scheduled: 'border-brand-600 bg-brand-50',
  published: 'border-emerald-600 bg-emerald-50',
  partial_published: 'border-amber-600 bg-amber-50',
  failed: 'border-red-600 bg-red-50',
  publishing: 'border-amber-600 bg-amber-50',
  draft: 'border-slate-400 bg-white',
};

function PostChip({ post, tz }: { post: PostListRowDto; tz: string }) {
  const movable = (EDITABLE_STATUSES as readonly string[]).includes(post.status) && post.scheduledAt !== null;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, isDragging } = useDraggable({ id: post.id, data: { post }, disabled: !movable });
  const style = transform ? { transform: `translate3d(${transform.x}px, ${transform.y}px, 0)` } : undefined;
  // The grid is labelled with its zone; the chip's hover names the whole moment.
  const time = formatIn(post.scheduledAt!, tz, 'HH:mm', { zone: false });
  return (
    <div
      ref={setNodeRef}
      style={style}
      title={formatIn(post.scheduledAt!, tz)}
      data-testid="calendar-post"
      data-post-id={post.id}
      className={cn(
        'mb-1 flex items-start gap-1 rounded border-l-4 px-1 py-1 text-xs shadow-sm',
        CHIP_TONE[post.status] ?? 'border-slate-400 bg-white',
        isDragging && 'relative z-20 opacity-80 shadow-lg',
      )}
    >
      {movable ? (
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...listeners}
          {...attributes}
          aria-label={`Move the ${time} post to another day`}
          data-testid="drag-handle"
          className="shrink-0 cursor-grab touch-none rounded text-slate-600 hover:bg-slate-200"
        >
          <GripVertical aria-hidden className="size-4" />
        </button>
      ) : null}
      <Link href={`/posts/${post.id}`} className="min-w-0 break-words hover:underline">
        <span className="font-semibold tabular-nums">{time}</span> {post.content.length > 50 ? `${post.content.slice(0, 49)}…` : post.content}
        {post.approvalStatus === 'pending' ? <span className="text-amber-800"> · approval</span> : null}
      </Link>
      {post.mediaUrls[0] ? (
        <MediaThumb url={post.mediaUrls[0]} label={`Media of the ${time} post`} className="ml-auto size-8 shrink-0 rounded object-cover" />
      ) : null}
    </div>
  );
}

function DayCell({ day, tz, posts, free, dim, today }: { day: string; tz: string; posts: PostListRowDto[]; free: string[]; dim: boolean; today: boolean }) {
  const { setNodeRef, isOver } = useDroppable({ id: day });
  const date = fromLocalInput(`${day}T12:00`, tz)!;
  return (
    <div
      ref={setNodeRef}
      data-testid={`day-${day}`}
      // On a phone the days stack: an empty day is one line (still a drop target), not a screen.
      className={cn(
        'border-b border-slate-200 p-1.5 sm:min-h-28 sm:border-r',
        posts.length ? 'min-h-16' : 'min-h-0',
        dim && 'bg-slate-50',
        isOver && 'bg-brand-50 ring-2 ring-brand-600 ring-inset',
      )}
    >
      <p className={cn('mb-1 text-xs font-medium text-slate-600', today && 'font-bold text-brand-700')}>
        <span className="sm:hidden">{formatIn(date, tz, 'EEEE ')}</span>
        {formatIn(date, tz, 'd MMM')}
      </p>
      {posts.map((p) => (
        <PostChip key={p.id} post={p} tz={tz} />
      ))}
      {free.map((time) => (
        <Link
          key={time}
          href="/compose"
          data-testid="free-slot"
          className="mb-1 block rounded border border-dashed border-slate-300 px-1.5 py-0.5 text-xs text-slate-600 hover:border-brand-600 hover:text-brand-700"
        >
          {time} · free queue slot
        </Link>
      ))}
      {posts.length === 0 && free.length === 0 ? <p className="text-xs text-slate-600 sm:hidden">Nothing scheduled</p> : null}
    </div>
  );
}

type ListData = { data: PostListRowDto[]; page: number; limit: number; total: number };

export function Calendar({ nowMs, initial }: { nowMs: number; initial: ListData | null }) {
  const { current } = useShell();
  const tz = current.timeZone;
  const invalidate = useInvalidateAll();
  const [view, setView] = useState<View>('week');
  const [offset, setOffset] = useState(0);
  const { now, first, days, query: input } = calendarRange(view, offset, nowMs, tz);
  const q = useQuery({
    queryKey: ['posts.list', input],
    queryFn: () => trpc.posts.list.query(input),
    initialData: view === 'week' && offset === 0 && initial ? initial : undefined,
    placeholderData: keepPreviousData,
  });
  const byDay = new Map<string, PostListRowDto[]>();
  for (const p of q.data?.data ?? []) {
    if (!p.scheduledAt || p.status === 'cancelled') continue;
    const k = formatIn(p.scheduledAt, tz, 'yyyy-MM-dd');
    byDay.set(k, [...(byDay.get(k) ?? []), p]);
  }
  for (const list of byDay.values()) list.sort((a, b) => a.scheduledAt!.localeCompare(b.scheduledAt!));
  // The queue's free slots of the next four weeks (a time is free while one account has it free).
  const queue = useQuery({ queryKey: ['queue.get', 28], queryFn: async () => (await trpc.queue.get.query({ days: 28 })).data });
  const freeByDay = new Map<string, string[]>();
  for (const u of queue.data?.upcoming ?? []) {
    if (u.postId) continue;
    const k = formatIn(u.at, tz, 'yyyy-MM-dd');
    const time = formatIn(u.at, tz, 'HH:mm', { zone: false });
    const list = freeByDay.get(k) ?? [];
    if (!list.includes(time)) freeByDay.set(k, [...list, time].sort());
  }

  const move = useMutation({
    mutationFn: (v: { id: string; scheduledAt: string }) => trpc.posts.update.mutate(v),
    onSuccess: (r) => {
      toast.success(`Moved to ${formatIn(r.data.scheduledAt!, tz)}`);
      for (const w of r.warnings) toast.message(w.message);
      void invalidate();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor));
  const onDragEnd = (e: DragEndEvent) => {
    const post = e.active.data.current?.post as PostListRowDto | undefined;
    const day = e.over?.id as string | undefined;
    if (!post?.scheduledAt || !day) return;
    if (formatIn(post.scheduledAt, tz, 'yyyy-MM-dd') === day) return;
    const at = fromLocalInput(`${day}T${formatIn(post.scheduledAt, tz, 'HH:mm', { zone: false })}`, tz);
    if (at) move.mutate({ id: post.id, scheduledAt: at });
  };
  const todayKey = format(now, 'yyyy-MM-dd');
  const title = view === 'week' ? `Week of ${format(first, 'd MMM yyyy')}` : format(startOfMonth(addMonths(now, offset)), 'MMMM yyyy');

  return (
    <>
      <PageHeader title="Calendar">
        <div role="group" aria-label="View" className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
          {(['week', 'month'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => {
                setView(v);
                setOffset(0);
              }}
              className={cn('rounded px-3 py-1 text-sm capitalize', view === v ? 'bg-brand-600 text-white' : 'text-slate-700')}
            >
              {v}
            </button>
          ))}
        </div>
        <Button variant="secondary" size="sm" aria-label="Previous" onClick={() => setOffset((o) => o - 1)}>
          <ChevronLeft aria-hidden className="size-4" />
        </Button>
        <Button variant="secondary" size="sm" onClick={() => setOffset(0)}>
          Today
        </Button>
        <Button variant="secondary" size="sm" aria-label="Next" onClick={() => setOffset((o) => o + 1)}>
          <ChevronRight aria-hidden className="size-4" />
        </Button>
      </PageHeader>
      <p className="mb-2 text-sm text-slate-600">
        <span className="font-medium text-slate-900" data-testid="calendar-title">
          {title}
        </span>{' '}
        · times in {tz}
        {zoneLabel(now, tz) !== tz ? ` (${zoneLabel(now, tz)})` : ''} · drag a post to another day to reschedule it
      </p>
      {q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />
      ) : (
        <DndContext sensors={sensors} onDragEnd={onDragEnd}>
          <div className="overflow-hidden rounded-lg border-t border-l border-slate-200 bg-white sm:border-l" aria-busy={q.isFetching}>
            <div className="hidden grid-cols-7 border-b border-slate-200 bg-slate-50 text-xs font-semibold text-slate-600 sm:grid">
              {days.slice(0, 7).map((d) => (
                <div key={d.getTime()} className="border-r border-slate-200 px-1.5 py-1">
                  {format(d, 'EEE')}
                </div>
              ))}
            </div>
            <div className="grid grid-cols-1 border-r border-slate-200 sm:grid-cols-7 sm:border-r-0">
              {days.map((d) => {
                const key = format(d, 'yyyy-MM-dd');
                return q.isPending ? (
                  <div key={key} className="min-h-28 border-b border-slate-200 p-1.5 sm:border-r">
                    <Skeleton className="h-5 w-full" />
                  </div>
                ) : (
                  <DayCell
                    key={key}
                    day={key}
                    tz={tz}
                    posts={byDay.get(key) ?? []}
                    free={freeByDay.get(key) ?? []}
                    dim={view === 'month' && !isSameMonth(d, addMonths(now, offset))}
                    today={key === todayKey}
                  />
                );
              })}
            </div>
          </div>
        </DndContext>
      )}
    </>
  );
}
