'use client';
// "Repeat this post (evergreen)" on a published post's page: the interval and the most
// repeats, how the repeats are going, and stop. Texts to rotate are set through the API.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Link from 'next/link';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Card, FieldError, Input, Label } from '@/app/_ui/primitives';
import { MAX_INTERVAL_DAYS, MAX_REPEATS, MIN_INTERVAL_DAYS } from '@/server/evergreen/evergreen.schemas';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';

export function EvergreenCard({ postId, tz, canWrite }: { postId: string; tz: string; canWrite: boolean }) {
  const q = useQuery({
    queryKey: ['evergreen.get', postId],
    queryFn: async () => {
      try {
        return (await trpc.evergreen.get.query({ id: postId })).data;
      } catch (e) {
        if (serverError(e).code === 'EVERGREEN_NOT_FOUND') return null;
        throw e;
      }
    },
  });
  const setting = q.data ?? null;
  const [interval, setIntervalDays] = useState('');
  const [maxRepeats, setMaxRepeats] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      trpc.evergreen.set.mutate({
        id: postId,
        intervalDays: Number(interval || setting?.intervalDays || 30),
        ...(setting?.texts.length ? { texts: setting.texts } : {}),
        maxRepeats: maxRepeats ? Number(maxRepeats) : null,
      }),
    onSuccess: () => {
      setError(null);
      toast.success('This post repeats through the posting queue');
      void q.refetch();
    },
    onError: (e) => setError(serverError(e).message),
  });
  const stop = useMutation({
    mutationFn: () => trpc.evergreen.stop.mutate({ id: postId }),
    onSuccess: () => {
      toast.success('This post no longer repeats');
      void q.refetch();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  if (q.isPending || q.isError) return null;
  const active = setting?.status === 'active';

  return (
    <Card className="mt-4 space-y-3 text-sm" role="region" aria-labelledby="evergreen-title">
      <h2 id="evergreen-title" className="text-base font-semibold">
        Repeat this post (evergreen)
      </h2>
      {setting ? (
        <p data-testid="evergreen-status">
          {active
            ? `Repeats every ${setting.intervalDays} day(s); next due ${formatIn(setting.nextDueAt, tz)}.`
            : `Stopped (${setting.endedReason?.replace('_', ' ') ?? 'ended'}).`}{' '}
          {setting.repeats} repeat(s) queued so far
          {setting.maxRepeats !== null ? ` of at most ${setting.maxRepeats}` : ''}.
          {setting.lastQueuedPostId ? (
            <>
              {' '}
              <Link className="underline" href={`/posts/${setting.lastQueuedPostId}`}>
                The last repeat
              </Link>
            </>
          ) : null}
        </p>
      ) : (
        <p className="text-slate-600">Each repeat is a new post in the next free slot of the posting queue.</p>
      )}
      {setting?.lastError && active ? <p className="text-amber-800">{setting.lastError}</p> : null}
      {canWrite ? (
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <div>
            <Label htmlFor="evergreen-interval">Every how many days</Label>
            <Input
              id="evergreen-interval"
              type="number"
              min={MIN_INTERVAL_DAYS}
              max={MAX_INTERVAL_DAYS}
              required
              className="w-28"
              value={interval || String(setting?.intervalDays ?? 30)}
              onChange={(e) => setIntervalDays(e.target.value)}
              aria-describedby={error ? 'evergreen-error' : undefined}
            />
          </div>
          <div>
            <Label htmlFor="evergreen-max">At most (repeats, optional)</Label>
            <Input
              id="evergreen-max"
              type="number"
              min={1}
              max={MAX_REPEATS}
              className="w-28"
              value={maxRepeats || (setting?.maxRepeats ? String(setting.maxRepeats) : '')}
              onChange={(e) => setMaxRepeats(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : active ? 'Save' : 'Repeat this post'}
          </Button>
          {active ? (
            <Button type="button" variant="secondary" onClick={() => stop.mutate()} disabled={stop.isPending}>
              {stop.isPending ? 'Stopping…' : 'Stop repeating'}
            </Button>
          ) : null}
        </form>
      ) : null}
      <FieldError id="evergreen-error">{error}</FieldError>
    </Card>
  );
}
