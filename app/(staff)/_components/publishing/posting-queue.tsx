'use client';
// The posting queue: the workspace's weekly slots (or one account's own), suggestions from
// best times, the coming week's slots with the posts taking them (free ones plain to see),
// pause / resume and shuffle. Every change is one queue procedure (server/queue).
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Badge, Card, EmptyState, ErrorState, Input, Label, LoadingRows, PageHeader, Select } from '@/app/_ui/primitives';
import type { ConnectionDto } from '@/server/connections/connections.schemas';
import type { QueueDto, Slot } from '@/server/queue/queue.schemas';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { useInvalidateAll } from './post-bits';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const BEST_DAYS: Record<string, number> = { monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6, sunday: 7 };
const sortSlots = (slots: Slot[]) => [...slots].sort((a, b) => a.weekday - b.weekday || a.time.localeCompare(b.time));

export function PostingQueue({ initial, connections }: { initial: QueueDto | null; connections: ConnectionDto[] }) {
  const { current } = useShell();
  const canWrite = current.scopes.includes('posts:write');
  const invalidate = useInvalidateAll();
  const q = useQuery({ queryKey: ['queue.get'], queryFn: async () => (await trpc.queue.get.query({ days: 7 })).data, initialData: initial ?? undefined });
  const [owner, setOwner] = useState<string>('');
  const [draft, setDraft] = useState<Slot[] | null>(null);
  const [day, setDay] = useState('weekdays');
  const [time, setTime] = useState('09:00');

  const queue = q.data;
  const saved = sortSlots((queue?.slots ?? []).filter((s) => (s.connectionId ?? '') === owner).map(({ weekday, time }) => ({ weekday, time })));
  const slots = draft ?? saved;
  const names = new Map(connections.map((c) => [c.id, c.displayName]));

  const refresh = () => {
    void q.refetch();
    void invalidate();
  };
  const save = useMutation({
    mutationFn: (next: Slot[]) => trpc.queue.setSlots.mutate({ connectionId: owner || null, slots: next }),
    onSuccess: () => {
      toast.success('Queue slots saved');
      setDraft(null);
      refresh();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const act = useMutation({
    mutationFn: async (what: 'pause' | 'resume' | 'shuffle') => (await trpc.queue[what].mutate({})).data,
    onSuccess: (data, what) => {
      toast.success(
        what === 'pause'
          ? 'Queue paused: its posts are held'
          : what === 'resume'
            ? `Queue resumed${data.moved.length ? `; ${data.moved.length} overdue post(s) moved to free slots` : ''}`
            : `Shuffled ${data.moved.length} post(s)`,
      );
      refresh();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const suggest = useMutation({
    mutationFn: async () => (await trpc.bestTimes.get.query({})).data,
    onSuccess: (best) => {
      const suggested = best.slots.map((s) => ({ weekday: BEST_DAYS[s.dayOfWeek.toLowerCase()] ?? 1, time: `${String(s.hour).padStart(2, '0')}:00` }));
      setDraft(sortSlots(dedupe([...slots, ...suggested])));
      toast.message(
        `${suggested.length} times suggested from ${best.insufficientHistory ? 'defaults (little history yet)' : 'your posts’ results'}: save to keep them`,
      );
    },
    onError: (e) => toast.error(serverError(e).message),
  });

  if (q.isError) return <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />;
  if (!queue) return <LoadingRows label="Loading the queue" />;

  const add = () => {
    const days = day === 'weekdays' ? [1, 2, 3, 4, 5] : day === 'every' ? [1, 2, 3, 4, 5, 6, 7] : [Number(day)];
    setDraft(sortSlots(dedupe([...slots, ...days.map((weekday) => ({ weekday, time }))])));
  };
  const remove = (slot: Slot) => setDraft(slots.filter((s) => !(s.weekday === slot.weekday && s.time === slot.time)));
  const byDay = new Map<string, QueueDto['upcoming']>();
  for (const u of queue.upcoming) {
    const key = formatIn(u.at, queue.timeZone, 'EEEE d MMMM');
    byDay.set(key, [...(byDay.get(key) ?? []), u]);
  }

  return (
    <>
      <PageHeader title="Queue">
        {canWrite ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => act.mutate('shuffle')} disabled={act.isPending}>
              Shuffle
            </Button>
            {queue.pausedAt ? (
              <Button onClick={() => act.mutate('resume')} disabled={act.isPending}>
                Resume queue
              </Button>
            ) : (
              <Button variant="secondary" onClick={() => act.mutate('pause')} disabled={act.isPending}>
                Pause queue
              </Button>
            )}
          </div>
        ) : null}
      </PageHeader>
      {queue.pausedAt ? (
        <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          Paused since {formatIn(queue.pausedAt, queue.timeZone)}. Queued posts are held; when you resume, the ones whose slot passed move to the next free
          slots.
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <h2 className="font-semibold">Weekly slots</h2>
          <p className="mb-3 text-sm text-slate-600">
            “Add to queue” in the composer puts a post in the next free slot its accounts share. Times are in {queue.timeZone}.
          </p>
          <Label htmlFor="slot-owner">Slots of</Label>
          <Select
            id="slot-owner"
            value={owner}
            onChange={(e) => {
              setOwner(e.target.value);
              setDraft(null);
            }}
          >
            <option value="">The workspace (every account without its own)</option>
            {connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.displayName} only
              </option>
            ))}
          </Select>
          {slots.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">{owner ? 'This account uses the workspace’s slots.' : 'No slots yet: add times below.'}</p>
          ) : (
            <ul aria-label="Slots" className="mt-3 space-y-2">
              {WEEKDAYS.map((name, i) => {
                const times = slots.filter((s) => s.weekday === i + 1);
                if (!times.length) return null;
                return (
                  <li key={name} className="flex flex-wrap items-center gap-2">
                    <span className="w-24 text-sm font-medium">{name}</span>
                    {times.map((s) => (
                      <span key={s.time} className="inline-flex items-center gap-1 rounded-full border border-slate-300 px-2 py-0.5 text-sm">
                        {s.time}
                        {canWrite ? (
                          <button type="button" aria-label={`Remove ${name} ${s.time}`} className="text-slate-600 hover:text-red-700" onClick={() => remove(s)}>
                            ×
                          </button>
                        ) : null}
                      </span>
                    ))}
                  </li>
                );
              })}
            </ul>
          )}
          {canWrite ? (
            <div className="mt-4 space-y-3 border-t border-slate-200 pt-3">
              <div className="flex flex-wrap items-end gap-2">
                <div>
                  <Label htmlFor="slot-day">Day</Label>
                  <Select id="slot-day" value={day} onChange={(e) => setDay(e.target.value)}>
                    <option value="weekdays">Every weekday</option>
                    <option value="every">Every day</option>
                    {WEEKDAYS.map((name, i) => (
                      <option key={name} value={String(i + 1)}>
                        {name}
                      </option>
                    ))}
                  </Select>
                </div>
                <div>
                  <Label htmlFor="slot-time">Time</Label>
                  <Input id="slot-time" type="time" value={time} onChange={(e) => setTime(e.target.value)} />
                </div>
                <Button variant="secondary" onClick={add} disabled={!/^\d\d:\d\d$/.test(time)}>
                  Add slot
                </Button>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button onClick={() => save.mutate(slots)} disabled={!draft || save.isPending}>
                  {save.isPending ? 'Saving…' : 'Save slots'}
                </Button>
                <Button variant="ghost" onClick={() => suggest.mutate()} disabled={suggest.isPending}>
                  Suggest from best times
                </Button>
                {draft ? (
                  <Button variant="ghost" onClick={() => setDraft(null)}>
                    Discard changes
                  </Button>
                ) : null}
              </div>
            </div>
          ) : null}
        </Card>
        <Card>
          <h2 className="mb-3 font-semibold">The next 7 days</h2>
          {byDay.size === 0 ? (
            <EmptyState title="No slots in the next 7 days">Add weekly slots to see them here.</EmptyState>
          ) : (
            <ol aria-label="Coming slots" className="space-y-3">
              {[...byDay].map(([label, items]) => (
                <li key={label}>
                  <h3 className="text-sm font-medium text-slate-700">{label}</h3>
                  <ul className="mt-1 space-y-1">
                    {items.map((u) => (
                      <li key={`${u.at}-${u.connectionId}`} className="flex items-center gap-2 text-sm">
                        <span className="w-12 tabular-nums">{formatIn(u.at, queue.timeZone, 'HH:mm', { zone: false })}</span>
                        <span className="min-w-0 flex-1 truncate">{names.get(u.connectionId) ?? 'Account'}</span>
                        {u.postId ? (
                          <Link href={`/posts/${u.postId}`} className="text-brand-700 underline">
                            Taken
                          </Link>
                        ) : (
                          <Badge tone="neutral">Free</Badge>
                        )}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ol>
          )}
        </Card>
      </div>
    </>
  );
}

function dedupe(slots: Slot[]): Slot[] {
  return [...new Map(slots.map((s) => [`${s.weekday}@${s.time}`, s])).values()];
}
