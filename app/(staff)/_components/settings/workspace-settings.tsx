'use client';
// Settings of the workspace picked in the switcher: its name and whether posts need approval
// by default, the time zone every screen, the client pages and the analytics windows read
// times in, the brand clients see on connect, review and report links, the posting schedule
// (edited on the Queue page) and the history of changes. Owners and admins change them
// (server/workspaces/workspace-settings.ts); everyone else reads them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Card, ErrorState, FieldError, Input, Label, LoadingRows, PageHeader, Select } from '@/app/_ui/primitives';
import { RESPONSE_TARGET_MAX, RESPONSE_TARGET_MIN } from '@/server/inbox/inbox.schemas';
import { timeZoneNames } from '@/server/shared/time-zone';
import type { WorkspaceSettingsDto } from '@/server/workspaces/workspace-settings';
import { useShell } from '../../_lib/providers';
import { LeaveHerald } from './leave-herald';
import { formatIn } from '../../_lib/time';
import { useBrowserTimeZone } from '@/app/_ui/browser-time-zone';
import { useMinuteClock } from '@/app/_ui/minute-clock';
import { serverError, trpc } from '../../_lib/trpc';

/** Every zone the browser knows, the workspace's own first if the list lacks it. */
function zones(current: string): string[] {
  const list = timeZoneNames();
  return list.includes(current) ? list : [current, ...list];
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const FIELD_WORDS: Record<string, string> = {
  name: 'Name',
  timeZone: 'Time zone',
  requireApproval: 'Approval by default',
  demoAccounts: 'Demo accounts',
  requireReplyApproval: 'Replies need approval',
  trackLinks: 'Tracked links',
  utmTemplate: 'UTM parameters',
  responseTargetMinutes: 'Reply target (minutes)',
  brandName: 'Brand name',
  brandLogoUrl: 'Brand logo',
};
const said = (v: unknown) => (v === null || v === undefined || v === '' ? '(none)' : v === true ? 'on' : v === false ? 'off' : String(v));

export function WorkspaceSettings() {
  const { current, workspaces } = useShell();
  // The agency itself (not a client) and its owner, with the scope to manage it.
  const isAgencyOwner = current.role === 'owner' && current.scopes.includes('workspaces:manage') && workspaces.some((w) => w.id === current.id);
  const canChange = current.scopes.includes('workspaces:manage');
  const settings = useQuery({ queryKey: ['settings', current.id], queryFn: async () => (await trpc.settings.get.query()).data });
  return (
    <>
      <PageHeader title="Settings" />
      {canChange ? null : (
        <p className="mb-3 max-w-xl text-sm text-slate-600" role="note">
          Settings are changed by the workspace’s owners and admins; your role ({current.role}) reads them.
        </p>
      )}
      <div className="grid max-w-5xl gap-4 lg:grid-cols-2">
        {settings.isPending ? (
          <Card>
            <LoadingRows rows={3} label="Loading settings" />
          </Card>
        ) : settings.isError ? (
          <ErrorState message={serverError(settings.error).message} onRetry={() => settings.refetch()} />
        ) : (
          // Keyed by what was saved: a save (or a refetch) starts the form from the stored values.
          <GeneralSettings
            key={`${settings.data.name}\u0000${settings.data.requireApproval}\u0000${settings.data.demoAccounts}\u0000${settings.data.requireReplyApproval}`}
            settings={settings.data}
            canChange={canChange}
          />
        )}
        <TimeZoneSettings canChange={canChange} />
        {settings.data ? (
          <BrandSettings key={`${settings.data.brand.name}\u0000${settings.data.brand.logoUrl}`} settings={settings.data} canChange={canChange} />
        ) : null}
        {settings.data ? (
          <TrackedLinkSettings key={`${settings.data.trackLinks}\u0000${settings.data.utmTemplate}`} settings={settings.data} canChange={canChange} />
        ) : null}
        {settings.data ? <ResponseTargetSettings key={settings.data.responseTargetMinutes} settings={settings.data} canChange={canChange} /> : null}
        <PostingSchedule />
        {canChange ? <SettingsHistory /> : null}
      </div>
      {isAgencyOwner ? <LeaveHerald /> : null}
    </>
  );
}

function useSave(onDone?: (s: WorkspaceSettingsDto) => void) {
  const { current } = useShell();
  const queryClient = useQueryClient();
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const save = useMutation({
    mutationFn: async (patch: Parameters<typeof trpc.settings.update.mutate>[0]) => (await trpc.settings.update.mutate(patch)).data,
    onSuccess: (s) => {
      setError(null);
      queryClient.setQueryData(['settings', current.id], s);
      void queryClient.invalidateQueries({ queryKey: ['settings-history', current.id] });
      onDone?.(s);
    },
    onError: (e) => {
      const err = serverError(e);
      setError({ field: err.field, message: err.message });
    },
  });
  return { save, error };
}

/** A setting that is on or off: the box, its name, and what it means in a sentence. */
function Toggle(props: { label: string; checked: boolean; disabled: boolean; onChange: (on: boolean) => void; children: ReactNode }) {
  return (
    <label className="flex items-start gap-2 text-sm">
      <input type="checkbox" className="mt-1" checked={props.checked} disabled={props.disabled} onChange={(e) => props.onChange(e.target.checked)} />
      <span>
        <span className="font-medium">{props.label}</span>
        <span className="block text-slate-600">{props.children}</span>
      </span>
    </label>
  );
}

function GeneralSettings({ settings, canChange }: { settings: WorkspaceSettingsDto; canChange: boolean }) {
  const [name, setName] = useState(settings.name);
  const [requireApproval, setRequireApproval] = useState(settings.requireApproval);
  const [demoAccounts, setDemoAccounts] = useState(settings.demoAccounts);
  const [requireReplyApproval, setRequireReplyApproval] = useState(settings.requireReplyApproval);
  const { save, error } = useSave(() => toast.success('Settings saved'));
  const dirty =
    name.trim() !== settings.name ||
    requireApproval !== settings.requireApproval ||
    demoAccounts !== settings.demoAccounts ||
    requireReplyApproval !== settings.requireReplyApproval;
  return (
    <Card>
      <h2 className="text-lg font-semibold">Workspace</h2>
      <form
        className="mt-3 space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({
            ...(name.trim() !== settings.name ? { name: name.trim() } : {}),
            ...(requireApproval !== settings.requireApproval ? { requireApproval } : {}),
            ...(demoAccounts !== settings.demoAccounts ? { demoAccounts } : {}),
            ...(requireReplyApproval !== settings.requireReplyApproval ? { requireReplyApproval } : {}),
          });
        }}
      >
        <div>
          <Label htmlFor="settings-name">Name</Label>
          <Input
            id="settings-name"
            value={name}
            maxLength={80}
            disabled={!canChange}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={error?.field === 'name' || undefined}
            aria-describedby={error?.field === 'name' ? 'settings-name-error' : undefined}
          />
          {error?.field === 'name' ? <FieldError id="settings-name-error">{error.message}</FieldError> : null}
        </div>
        <Toggle label="Posts need approval" checked={requireApproval} disabled={!canChange} onChange={setRequireApproval}>
          Every scheduled post waits in the approval queue until a member approves it. Posts already waiting stay there.
        </Toggle>
        <Toggle label="Replies need approval" checked={requireReplyApproval} disabled={!canChange} onChange={setRequireReplyApproval}>
          Replies that members write in the inbox wait in the approval queue until an owner, admin or reviewer approves them. Owners and admins answer directly.
        </Toggle>
        <Toggle label="Offer demo accounts" checked={demoAccounts} disabled={!canChange} onChange={setDemoAccounts}>
          Demo accounts take posts like real ones and publish nowhere, for trying Herald. Unchecked, connect pages offer real accounts only; demo accounts
          already connected stay until you remove them.
        </Toggle>
        {error && error.field !== 'name' ? <FieldError>{error.message}</FieldError> : null}
        {canChange ? (
          <Button type="submit" disabled={!dirty || save.isPending || name.trim() === ''}>
            {save.isPending ? 'Saving…' : 'Save workspace'}
          </Button>
        ) : null}
      </form>
    </Card>
  );
}

function TrackedLinkSettings({ settings, canChange }: { settings: WorkspaceSettingsDto; canChange: boolean }) {
  const [trackLinks, setTrackLinks] = useState(settings.trackLinks);
  const [utmTemplate, setUtmTemplate] = useState(settings.utmTemplate);
  const { save, error } = useSave(() => toast.success('Tracked links saved: posts written from now on follow them'));
  const dirty = trackLinks !== settings.trackLinks || utmTemplate.trim() !== settings.utmTemplate;
  return (
    <Card>
      <h2 className="text-lg font-semibold">Tracked links</h2>
      <form
        className="mt-3 space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({
            ...(trackLinks !== settings.trackLinks ? { trackLinks } : {}),
            ...(utmTemplate.trim() !== settings.utmTemplate ? { utmTemplate: utmTemplate.trim() } : {}),
          });
        }}
      >
        <Toggle label="Shorten and count links" checked={trackLinks} disabled={!canChange} onChange={setTrackLinks}>
          Links in posts written or edited from now on are sent as Herald’s short links, with the UTM parameters below, and their clicks show in the post’s
          results and the client report. Herald keeps no visitor data; bots are not counted.
        </Toggle>
        <div>
          <Label htmlFor="settings-utm">UTM parameters</Label>
          <Input
            id="settings-utm"
            value={utmTemplate}
            maxLength={500}
            disabled={!canChange}
            onChange={(e) => setUtmTemplate(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'settings-utm-error settings-utm-help' : 'settings-utm-help'}
          />
          <p id="settings-utm-help" className="mt-1 text-xs text-slate-600">
            name=value pairs joined by &amp;; {'{network}'} becomes the network (e.g. linkedin), {'{post}'} the post’s id. Empty adds none.
          </p>
        </div>
        {error ? <FieldError id="settings-utm-error">{error.message}</FieldError> : null}
        {canChange ? (
          <Button type="submit" disabled={!dirty || save.isPending}>
            {save.isPending ? 'Saving…' : 'Save tracked links'}
          </Button>
        ) : null}
      </form>
    </Card>
  );
}

function ResponseTargetSettings({ settings, canChange }: { settings: WorkspaceSettingsDto; canChange: boolean }) {
  const [minutes, setMinutes] = useState(String(settings.responseTargetMinutes));
  const { save, error } = useSave(() => toast.success('Reply target saved'));
  const value = Number(minutes);
  const valid = Number.isInteger(value) && value >= RESPONSE_TARGET_MIN && value <= RESPONSE_TARGET_MAX;
  return (
    <Card>
      <h2 className="text-lg font-semibold">Response times</h2>
      <form
        className="mt-3 space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) save.mutate({ responseTargetMinutes: value });
        }}
      >
        <div>
          <Label htmlFor="settings-response-target">Answer comments within (minutes)</Label>
          <Input
            id="settings-response-target"
            type="number"
            inputMode="numeric"
            min={RESPONSE_TARGET_MIN}
            max={RESPONSE_TARGET_MAX}
            value={minutes}
            disabled={!canChange}
            onChange={(e) => setMinutes(e.target.value)}
            aria-invalid={error || !valid ? true : undefined}
            aria-describedby="settings-response-target-help"
          />
          <p id="settings-response-target-help" className="mt-1 text-xs text-slate-600">
            The team’s target for a first reply, {RESPONSE_TARGET_MIN} minutes to a week ({RESPONSE_TARGET_MAX}). Analytics and the client report show the share
            of comments, messages and reviews answered within it.
          </p>
        </div>
        {error ? <FieldError>{error.message}</FieldError> : null}
        {canChange ? (
          <Button type="submit" disabled={!valid || value === settings.responseTargetMinutes || save.isPending}>
            {save.isPending ? 'Saving…' : 'Save target'}
          </Button>
        ) : null}
      </form>
    </Card>
  );
}

function TimeZoneSettings({ canChange }: { canChange: boolean }) {
  const { current } = useShell();
  const [timeZone, setTimeZone] = useState(current.timeZone);
  const { save, error } = useSave((r) => {
    toast.success(`Times are now shown in ${r.timeZone}`);
    // Every screen reads the zone from the shell: load them again.
    window.location.reload();
  });
  const now = useMinuteClock();
  const mine = useBrowserTimeZone();
  return (
    <Card>
      <h2 className="text-lg font-semibold">Time zone</h2>
      <p className="mt-1 text-sm text-slate-600">
        {current.name} schedules and shows every time in this zone: the app, the calendar, the posting queue, the client review and connect pages, and
        analytics. Times already scheduled keep their moment; only how they are written changes.
      </p>
      <form
        className="mt-3 space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ timeZone });
        }}
      >
        <div>
          <Label htmlFor="settings-time-zone">Workspace time zone</Label>
          <Select id="settings-time-zone" value={timeZone} disabled={!canChange} onChange={(e) => setTimeZone(e.target.value)}>
            {zones(current.timeZone).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </Select>
          <p className="mt-1 text-sm text-slate-600" data-testid="time-zone-example">
            {now === null ? '\u00a0' : `Now: ${formatIn(new Date(now), timeZone)}`}
          </p>
          {error ? <FieldError>{error.message}</FieldError> : null}
        </div>
        {canChange ? (
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
        ) : null}
      </form>
    </Card>
  );
}

function BrandSettings({ settings, canChange }: { settings: WorkspaceSettingsDto; canChange: boolean }) {
  const [name, setName] = useState(settings.brand.name ?? '');
  const [logoUrl, setLogoUrl] = useState(settings.brand.logoUrl ?? '');
  const { save, error } = useSave(() => toast.success('Brand saved: new client links show it'));
  const nextName = name.trim() === '' ? null : name.trim();
  const nextLogo = logoUrl.trim() === '' ? null : logoUrl.trim();
  const dirty = nextName !== settings.brand.name || nextLogo !== settings.brand.logoUrl;
  const shown = settings.effectiveBrand;
  const fromWords = { workspace: 'this workspace’s brand', agency: 'the agency’s brand', name: 'the agency’s name' }[shown.from];
  return (
    <Card>
      <h2 className="text-lg font-semibold">Brand on client links</h2>
      <p className="mt-1 text-sm text-slate-600">
        What clients see on the connect, review and report links you send them. Leave empty to use the agency’s. Links already sent keep the brand they were
        issued with.
      </p>
      <div className="mt-3 flex items-center gap-3 rounded-md border border-slate-200 bg-slate-50 p-3" data-testid="brand-preview">
        {shown.logoUrl ? (
          // eslint-disable-next-line @next/next/no-img-element -- the client's browser loads the agency's own logo URL
          <img src={shown.logoUrl} alt="" className="h-10 w-10 rounded object-contain" />
        ) : (
          <span aria-hidden className="grid h-10 w-10 place-items-center rounded bg-brand-600 text-lg font-semibold text-white">
            {shown.name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div>
          <p className="font-medium">{shown.name}</p>
          <p className="text-xs text-slate-600">Shown now: {fromWords}</p>
        </div>
      </div>
      <form
        className="mt-3 space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ brand: { name: nextName, logoUrl: nextLogo } });
        }}
      >
        <div>
          <Label htmlFor="settings-brand-name">Brand name</Label>
          <Input
            id="settings-brand-name"
            value={name}
            maxLength={80}
            disabled={!canChange}
            placeholder={shown.from === 'workspace' ? undefined : shown.name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div>
          <Label htmlFor="settings-brand-logo">Logo URL (https)</Label>
          <Input
            id="settings-brand-logo"
            type="url"
            inputMode="url"
            value={logoUrl}
            disabled={!canChange}
            placeholder="https://…/logo.png"
            onChange={(e) => setLogoUrl(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'settings-brand-error' : undefined}
          />
        </div>
        {error ? (
          <FieldError id="settings-brand-error">
            {error.message.includes('https') ? 'The logo must be an https address without a user name or password' : error.message}
          </FieldError>
        ) : null}
        {canChange ? (
          <Button type="submit" disabled={!dirty || save.isPending}>
            {save.isPending ? 'Saving…' : 'Save brand'}
          </Button>
        ) : null}
      </form>
    </Card>
  );
}

function PostingSchedule() {
  const { current } = useShell();
  const queue = useQuery({ queryKey: ['queue-slots', current.id], queryFn: async () => (await trpc.queue.get.query({ days: 1 })).data });
  const shared = (queue.data?.slots ?? []).filter((s) => s.connectionId === null);
  const own = new Set((queue.data?.slots ?? []).filter((s) => s.connectionId !== null).map((s) => s.connectionId)).size;
  const byDay = WEEKDAYS.map((day, i) => ({
    day,
    times: shared
      .filter((s) => s.weekday === i + 1)
      .map((s) => s.time)
      .sort(),
  })).filter((d) => d.times.length > 0);
  return (
    <Card>
      <h2 className="text-lg font-semibold">Posting schedule</h2>
      <p className="mt-1 text-sm text-slate-600">
        The weekly times “Add to queue” fills, on the workspace’s clock ({current.timeZone}).
        {queue.data?.pausedAt ? ' The queue is paused: its posts are held.' : ''}
      </p>
      {queue.isPending ? (
        <LoadingRows rows={2} label="Loading the schedule" />
      ) : queue.isError ? (
        <FieldError>{serverError(queue.error).message}</FieldError>
      ) : byDay.length === 0 ? (
        <p className="mt-3 text-sm">No weekly times yet.</p>
      ) : (
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="schedule-summary">
          {byDay.map((d) => (
            <div key={d.day} className="contents">
              <dt className="font-medium">{d.day}</dt>
              <dd>{d.times.join(', ')}</dd>
            </div>
          ))}
        </dl>
      )}
      {own > 0 ? <p className="mt-2 text-sm text-slate-600">{own === 1 ? '1 account has' : `${own} accounts have`} times of its own.</p> : null}
      <Button asChild variant="secondary" className="mt-3">
        <Link href="/queue">Edit the posting schedule</Link>
      </Button>
    </Card>
  );
}

function SettingsHistory() {
  const { current } = useShell();
  const history = useQuery({ queryKey: ['settings-history', current.id], queryFn: async () => (await trpc.settings.history.query()).data });
  return (
    <Card className="lg:col-span-2">
      <h2 className="text-lg font-semibold">History</h2>
      <p className="mt-1 text-sm text-slate-600">Who changed what, and when. Owners also see these in Security’s events.</p>
      {history.isPending ? (
        <LoadingRows rows={2} label="Loading the history" />
      ) : history.isError ? (
        <FieldError>{serverError(history.error).message}</FieldError>
      ) : history.data.length === 0 ? (
        <p className="mt-3 text-sm">No changes yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100 text-sm" data-testid="settings-history">
          {history.data.map((h) => (
            <li key={h.id} className="py-2">
              <p className="text-slate-600">
                {formatIn(h.at, current.timeZone)} · {h.by ?? 'someone no longer here'}
              </p>
              <ul className="mt-1">
                {Object.entries(h.changes).map(([field, c]) => (
                  <li key={field}>
                    <span className="font-medium">{FIELD_WORDS[field] ?? field}</span>: {said(c.from)} → {said(c.to)}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
