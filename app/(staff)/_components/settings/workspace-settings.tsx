'use client';
// Settings of the workspace picked in the switcher. Today: the time zone every screen, the
// client review and connect pages and the analytics windows read times in.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Card, Label, PageHeader, Select } from '@/app/_ui/primitives';
import { timeZoneNames } from '@/server/shared/time-zone';
import { useShell } from '../../_lib/providers';
import { LeaveHerald } from './leave-herald';
import { formatIn } from '../../_lib/time';
import { useBrowserTimeZone } from '@/app/_ui/browser-time-zone';
import { serverError, trpc } from '../../_lib/trpc';

/** Every zone the browser knows, the workspace's own first if the list lacks it. */
function zones(current: string): string[] {
  const list = timeZoneNames();
  return list.includes(current) ? list : [current, ...list];
}

export function WorkspaceSettings() {
  const { current, workspaces } = useShell();
  // The agency itself (not a client) and its owner, with the scope to manage it.
  const isAgencyOwner = current.role === 'owner' && current.scopes.includes('workspaces:manage') && workspaces.some((w) => w.id === current.id);
  const [timeZone, setTimeZone] = useState(current.timeZone);
  const save = useMutation({
    mutationFn: () => trpc.analytics.setTimeZone.mutate({ timeZone }),
    onSuccess: (r) => {
      toast.success(`Times are now shown in ${r.data.timeZone}`);
      // Every screen reads the zone from the shell: load them again.
      window.location.reload();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const now = new Date();
  const mine = useBrowserTimeZone();
  return (
    <>
      <PageHeader title="Settings" />
      <Card className="max-w-xl">
        <h2 className="text-lg font-semibold">Time zone</h2>
        <p className="mt-1 text-sm text-slate-600">
          {current.name} schedules and shows every time in this zone: the app, the calendar, the client review and connect pages, and analytics. Times already
          scheduled keep their moment; only how they are written changes.
        </p>
        <form
          className="mt-3 space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <div>
            <Label htmlFor="settings-time-zone">Workspace time zone</Label>
            <Select id="settings-time-zone" value={timeZone} onChange={(e) => setTimeZone(e.target.value)}>
              {zones(current.timeZone).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </Select>
            <p className="mt-1 text-sm text-slate-600" data-testid="time-zone-example">
              Now: {formatIn(now, timeZone)}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={save.isPending || timeZone === current.timeZone}>
              {save.isPending ? 'Saving…' : 'Save time zone'}
            </Button>
            {mine && mine !== timeZone ? (
              <Button type="button" variant="secondary" onClick={() => setTimeZone(mine)}>
                Use this browser’s ({mine})
              </Button>
            ) : null}
          </div>
        </form>
      </Card>
      {isAgencyOwner ? <LeaveHerald /> : null}
    </>
  );
}
