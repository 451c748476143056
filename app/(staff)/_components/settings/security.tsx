'use client';
// Security of the signed-in member's own account: password, two-factor sign-in (set up on its
// own page, /signin/two-factor), recovery codes, and the sessions signed in (device, address,
// last seen), any of which they end. Agency owners also get the owner's part (security-owner.tsx).
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Badge, Card, ErrorState, FieldError, Input, Label, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import type { AccountSecurity } from '@/server/auth/account';
import { MIN_PASSWORD_LENGTH } from '@/server/auth/password-rules';
import type { SessionDto } from '@/server/auth/staff-session';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { SecurityOwner } from './security-owner';
import { TimeAgo } from '@/app/_ui/time-ago';

function PasswordCard() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const change = useMutation({
    mutationFn: () => trpc.security.changePassword.mutate({ current, next }),
    onSuccess: (r) => {
      toast.success(`Password changed${r.data.endedSessions ? `; ${r.data.endedSessions} other session(s) ended` : ''}`);
      setCurrent('');
      setNext('');
      setError(null);
    },
    onError: (e) => setError(serverError(e)),
  });
  return (
    <Card>
      <h2 className="text-lg font-semibold">Password</h2>
      <p className="mt-1 text-sm text-slate-600">
        At least {MIN_PASSWORD_LENGTH} characters; a few words together are easy to remember. Changing it signs out your other sessions.
      </p>
      <form
        className="mt-3 space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          change.mutate();
        }}
      >
        <div>
          <Label htmlFor="pw-current">Current password</Label>
          <Input
            id="pw-current"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
            aria-invalid={error?.field === 'current'}
            required
          />
          <FieldError>{error?.field === 'current' ? error.message : null}</FieldError>
        </div>
        <div>
          <Label htmlFor="pw-next">New password</Label>
          <Input
            id="pw-next"
            type="password"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
            aria-invalid={error?.field === 'password' || error?.field === 'next'}
            required
          />
          <FieldError>{error && error.field !== 'current' ? error.message : null}</FieldError>
        </div>
        <Button type="submit" disabled={change.isPending || !current || !next}>
          {change.isPending ? 'Changing…' : 'Change password'}
        </Button>
      </form>
    </Card>
  );
}

/** Asks for a current code (or a recovery code) before a change to the second factor. */
function CodeAction({ label, verb, onCode, pending }: { label: string; verb: string; onCode: (code: string) => void; pending: boolean }) {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  if (!open)
    return (
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        {label}
      </Button>
    );
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onCode(code);
      }}
    >
      <div>
        <Label htmlFor={`code-${verb}`}>Code from your app, or a recovery code</Label>
        <Input id={`code-${verb}`} value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" className="w-56" required />
      </div>
      <Button type="submit" size="sm" disabled={pending}>
        {verb}
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
        Cancel
      </Button>
    </form>
  );
}

function TwoFactorCard({ overview, onChange }: { overview: AccountSecurity; onChange: () => void }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const tf = overview.twoFactor;
  const disable = useMutation({
    mutationFn: (code: string) => trpc.security.disableTwoFactor.mutate({ code }),
    onSuccess: () => {
      toast.success('Two-factor sign-in is off');
      onChange();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const regenerate = useMutation({
    mutationFn: (code: string) => trpc.security.regenerateRecoveryCodes.mutate({ code }),
    onSuccess: (r) => {
      setCodes(r.data.recoveryCodes);
      onChange();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <Card>
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-lg font-semibold">Two-factor sign-in</h2>
        {tf.enabled ? <Badge tone="good">On</Badge> : <Badge tone={tf.required ? 'bad' : 'warn'}>Off</Badge>}
        {tf.required ? <Badge tone="info">Required by your agency</Badge> : null}
      </div>
      {tf.enabled ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            Signing in asks for a code from your authenticator app after your password. {tf.recoveryCodesLeft} of 10 recovery codes left.
          </p>
          {codes ? (
            <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm" data-testid="recovery-codes">
              <p className="font-medium">Your new recovery codes (shown only now; the old ones no longer work):</p>
              <ul className="mt-2 grid grid-cols-2 gap-1 font-mono">
                {codes.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="mt-3 flex flex-wrap gap-3">
            <CodeAction label="New recovery codes" verb="Make new codes" pending={regenerate.isPending} onCode={(c) => regenerate.mutate(c)} />
            {tf.required ? null : <CodeAction label="Turn off" verb="Turn off" pending={disable.isPending} onCode={(c) => disable.mutate(c)} />}
          </div>
        </>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            With it, a stolen password alone no longer opens your account — or every client account your agency publishes to.
          </p>
          <Button asChild className="mt-3">
            <a href="/signin/two-factor?next=/security">Set up two-factor sign-in</a>
          </Button>
        </>
      )}
    </Card>
  );
}

function SessionsCard({ initial }: { initial: SessionDto[] | null }) {
  const router = useRouter();
  const tz = useShell().current.timeZone;
  const q = useQuery({ queryKey: ['security.sessions'], queryFn: async () => (await trpc.security.sessions.query()).data, initialData: initial ?? undefined });
  const end = useMutation({
    mutationFn: (s: SessionDto) => trpc.security.endSession.mutate({ id: s.id }),
    onSuccess: (_r, s) => {
      if (s.current) router.push('/signin');
      toast.success('Session ended');
      void q.refetch();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const endOthers = useMutation({
    mutationFn: () => trpc.security.endOtherSessions.mutate(),
    onSuccess: (r) => {
      toast.success(`${r.data.ended} session(s) ended`);
      void q.refetch();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <section aria-labelledby="sessions-heading">
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <h2 id="sessions-heading" className="text-lg font-semibold">
          Where you are signed in
        </h2>
        <Button
          size="sm"
          variant="secondary"
          className="ml-auto"
          disabled={endOthers.isPending || (q.data?.length ?? 0) < 2}
          onClick={() => endOthers.mutate()}
        >
          Sign out everywhere else
        </Button>
      </div>
      <p className="mb-2 text-sm text-slate-600">
        A session ends after 30 minutes unused, and 12 hours after signing in at the latest. Ending one signs that device out at its next click.
      </p>
      {q.isPending ? (
        <LoadingRows rows={2} label="Loading sessions" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />
      ) : (
        <ul className="space-y-2" aria-label="Sessions">
          {q.data.map((s) => (
            <li key={s.id}>
              <Card className="flex flex-wrap items-center gap-3">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">
                    {s.device} {s.current ? <Badge tone="good">This device</Badge> : null}
                  </p>
                  <p className="text-sm break-words text-slate-600">
                    {s.address ?? 'address unknown'} · last seen <TimeAgo iso={s.lastSeenAt} /> · signed in {formatIn(s.signedInAt, tz)}
                  </p>
                </div>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={end.isPending}
                  onClick={() => end.mutate(s)}
                  aria-label={s.current ? `Sign out this device (${s.device})` : `End session on ${s.device}`}
                >
                  {s.current ? 'Sign out' : 'End'}
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Security({ initial }: { initial: { overview: AccountSecurity | null; sessions: SessionDto[] | null } }) {
  const q = useQuery({
    queryKey: ['security.overview'],
    queryFn: async () => (await trpc.security.overview.query()).data,
    initialData: initial.overview ?? undefined,
  });
  return (
    <>
      <PageHeader title="Security" />
      {q.isPending ? (
        <LoadingRows label="Loading security" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />
      ) : (
        <div className="space-y-4">
          <div className="grid gap-4 lg:grid-cols-2">
            <TwoFactorCard overview={q.data} onChange={() => void q.refetch()} />
            <PasswordCard />
          </div>
          <SessionsCard initial={initial.sessions} />
          {q.data.ownedAgency ? <SecurityOwner agency={q.data.ownedAgency} ownTwoFactor={q.data.twoFactor.enabled} onChange={() => void q.refetch()} /> : null}
        </div>
      )}
    </>
  );
}
