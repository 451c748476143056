'use client';
// The agency owner's part of Security: require two-factor sign-in of every member, the members
// (role, removal, invitations by email, leaving), and the security events of the agency
// and its clients: who, what, when, from where.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { ConfirmRemove } from '@/app/_ui/confirm-remove';
import { Badge, Card, EmptyState, ErrorState, FieldError, Input, Label, LoadingRows, Select } from '@/app/_ui/primitives';
import { ROLES, type Role } from '@/server/auth/roles';
import type { SecurityEventDto } from '@/server/security-events/security-events';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { TimeAgo } from '@/app/_ui/time-ago';

function RequirementCard({
  agency,
  ownTwoFactor,
  onChange,
}: {
  agency: { id: string; name: string; requireTwoFactor: boolean };
  ownTwoFactor: boolean;
  onChange: () => void;
}) {
  const set = useMutation({
    mutationFn: (required: boolean) => trpc.security.requireTwoFactor.mutate({ workspaceId: agency.id, required }),
    onSuccess: (r) => {
      toast.success(r.data.required ? 'Every member now signs in with a second factor' : 'Two-factor sign-in is no longer required');
      onChange();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <Card>
      <h2 className="text-lg font-semibold">Require two-factor sign-in</h2>
      <p className="mt-1 text-sm text-slate-600">
        Every member of {agency.name} must sign in with an authenticator app; a member without one sets it up at their next click before doing anything else, in
        the app and when connecting an assistant.
      </p>
      <label className="mt-3 flex items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          checked={agency.requireTwoFactor}
          disabled={set.isPending || (!ownTwoFactor && !agency.requireTwoFactor)}
          onChange={(e) => set.mutate(e.target.checked)}
        />
        Require it for every member
      </label>
      {!ownTwoFactor && !agency.requireTwoFactor ? <p className="mt-1 text-sm text-slate-600">Turn it on for yourself first.</p> : null}
    </Card>
  );
}

function MembersCard() {
  const q = useQuery({ queryKey: ['security.members'], queryFn: async () => (await trpc.security.members.query()).data });
  const refetch = () => void q.refetch();
  const { current } = useShell();
  const router = useRouter();
  const leave = useMutation({
    mutationFn: () => trpc.security.leave.mutate({ workspaceId: current.id }),
    // Their sessions ended: the sign-in page is where they are now.
    onSuccess: () => router.replace('/signin'),
    onError: (e) => toast.error(serverError(e).message),
  });
  const changeRole = useMutation({
    mutationFn: (v: { membershipId: string; role: Role }) => trpc.security.changeMemberRole.mutate(v),
    onSuccess: () => {
      toast.success('Role changed; their sessions were ended');
      refetch();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const remove = useMutation({
    mutationFn: (membershipId: string) => trpc.security.removeMember.mutate({ membershipId }),
    onSuccess: () => {
      toast.success('Member removed; their sessions were ended');
      refetch();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading" className="mb-2 text-lg font-semibold">
        Members
      </h2>
      {q.isPending ? (
        <LoadingRows rows={2} label="Loading members" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={refetch} />
      ) : (
        <ul className="space-y-2" aria-label="Members">
          {q.data.map((m) => (
            <li key={m.membershipId}>
              <Card className="flex flex-wrap items-center gap-3">
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words">
                    {m.name ?? m.email} {m.you ? <Badge>you</Badge> : null}
                  </p>
                  <p className="text-sm break-words text-slate-600">
                    {m.email} · {m.twoFactor ? 'two-factor on' : 'no second factor'} ·{' '}
                    {m.lastSeenAt ? <TimeAgo iso={m.lastSeenAt} prefix="last seen " /> : 'not signed in'}
                  </p>
                </div>
                {/* The field primitives are full width: a fixed box keeps the role beside the name. */}
                <div className="w-36 shrink-0">
                  <RoleSelect
                    label={`Role of ${m.email}`}
                    value={m.role}
                    disabled={changeRole.isPending}
                    onChange={(role) => changeRole.mutate({ membershipId: m.membershipId, role })}
                  />
                </div>
                {m.you ? (
                  <ConfirmRemove
                    verb="Leave"
                    what={current.name}
                    consequence="You lose access to the agency and its clients, and you are signed out. The agency keeps at least one owner: make someone else owner first if you are the only one."
                    pending={leave.isPending}
                    onConfirm={() => leave.mutate()}
                  />
                ) : (
                  <ConfirmRemove
                    what={m.email}
                    consequence="They lose access to the agency and its clients, and every session of theirs ends now."
                    pending={remove.isPending}
                    onConfirm={() => remove.mutate(m.membershipId)}
                  />
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}
      <Invitations onAccepted={refetch} />
    </section>
  );
}

/** Invite by email, and the invitations not yet accepted: withdraw, or copy a fresh link. */
function Invitations({ onAccepted }: { onAccepted: () => void }) {
  const q = useQuery({ queryKey: ['security.invitations'], queryFn: async () => (await trpc.security.invitations.query()).data });
  const { current } = useShell();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ email: string; link: string } | null>(null);
  const invite = useMutation({
    mutationFn: () => trpc.security.invite.mutate({ email, role }),
    onSuccess: (r) => {
      setSent({ email: r.data.invitation.email, link: r.data.link });
      setEmail('');
      setError(null);
      void q.refetch();
      onAccepted();
    },
    onError: (e) => setError(serverError(e).message),
  });
  const revoke = useMutation({
    mutationFn: (invitationId: string) => trpc.security.revokeInvitation.mutate({ invitationId }),
    onSuccess: () => {
      toast.success('Invitation withdrawn: its link no longer works');
      void q.refetch();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <div className="mt-4">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate();
        }}
      >
        <div className="min-w-56 flex-1">
          <Label htmlFor="invite-email">Invite by email</Label>
          <Input
            id="invite-email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error ? 'invite-email-error' : undefined}
            required
          />
          <FieldError id="invite-email-error">{error}</FieldError>
        </div>
        <div className="w-36 shrink-0">
          <RoleSelect label="Role" value={role} onChange={setRole} />
        </div>
        <Button type="submit" disabled={invite.isPending || !email}>
          {invite.isPending ? 'Sending…' : 'Send invitation'}
        </Button>
      </form>
      <p className="mt-1 text-sm text-slate-600">
        They get a link that works once, for 7 days: they set a password, or sign in if they have a Herald account. Their role applies to every client of the
        agency too.
      </p>
      {sent ? (
        <Card className="mt-3" role="status" data-testid="invitation-sent">
          <p className="text-sm">
            Invitation sent to <strong>{sent.email}</strong>. You can also pass the link on yourself; it is shown only now:
          </p>
          <p className="mt-1 font-mono text-xs break-all" data-testid="invitation-link">
            {sent.link}
          </p>
        </Card>
      ) : null}
      {q.data && q.data.length > 0 ? (
        <>
          <h3 className="mt-4 mb-2 font-semibold">Invitations not yet accepted</h3>
          <ul className="space-y-2" aria-label="Invitations">
            {q.data.map((i) => (
              <li key={i.id}>
                <Card className="flex flex-wrap items-center gap-3">
                  <div className="min-w-0 flex-1">
                    <p className="font-medium break-words">
                      {i.email} <Badge tone={i.expired ? 'warn' : 'neutral'}>{i.expired ? 'expired' : i.role}</Badge>
                    </p>
                    <p className="text-sm text-slate-600">
                      {i.expired ? 'Expired' : 'Works until'} {formatIn(i.expiresAt, current.timeZone)}
                      {i.invitedBy ? ` · invited by ${i.invitedBy}` : ''}
                    </p>
                  </div>
                  <ConfirmRemove
                    verb="Withdraw"
                    what={`the invitation of ${i.email}`}
                    consequence="The link they were sent stops working. You can invite them again later."
                    pending={revoke.isPending}
                    onConfirm={() => revoke.mutate(i.id)}
                  />
                </Card>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

const TONE: Record<string, 'bad' | 'warn' | 'good' | 'neutral'> = {
  'sign_in.failed': 'warn',
  'sign_in.throttled': 'bad',
  'sign_in.locked': 'bad',
  'two_factor.failed': 'warn',
  'two_factor.disabled': 'warn',
  'member.removed': 'warn',
  'key.revoked': 'neutral',
  'sign_in.succeeded': 'good',
};

function EventsCard() {
  const tz = useShell().current.timeZone;
  const q = useQuery({ queryKey: ['security.events'], queryFn: async () => (await trpc.security.events.query({ limit: 100 })).data });
  const who = (e: SecurityEventDto) => e.actor ?? e.member ?? e.email ?? 'someone';
  return (
    <section aria-labelledby="events-heading">
      <h2 id="events-heading" className="mb-2 text-lg font-semibold">
        Security events
      </h2>
      <p className="mb-2 text-sm text-slate-600">
        Sign-ins and their failures, second factors, passwords, members, API keys and client links, newest first. Kept for good: nobody edits or deletes them.
      </p>
      {q.isPending ? (
        <LoadingRows rows={3} label="Loading security events" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />
      ) : q.data.length === 0 ? (
        <EmptyState title="No security events yet" />
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Security events">
          {q.data.map((e) => (
            <li key={e.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-3 py-2 text-sm">
              <Badge tone={TONE[e.kind] ?? 'info'}>{e.label}</Badge>
              <span className="min-w-0 break-words">
                {who(e)}
                {e.member && e.actor && e.member !== e.actor ? ` → ${e.member}` : ''}
                {e.workspace ? ` · ${e.workspace.name}` : ''}
              </span>
              <span className="ml-auto text-slate-600">
                {e.address ?? 'address unknown'} ·{' '}
                <span title={formatIn(e.createdAt, tz)}>
                  <TimeAgo iso={e.createdAt} />
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function SecurityOwner(props: { agency: { id: string; name: string; requireTwoFactor: boolean }; ownTwoFactor: boolean; onChange: () => void }) {
  return (
    <>
      <RequirementCard {...props} />
      <MembersCard />
      <EventsCard />
    </>
  );
}

/** A member's role, as every role picker of this screen offers it. */
function RoleSelect({ label, value, disabled, onChange }: { label: string; value: Role; disabled?: boolean; onChange: (role: Role) => void }) {
  return (
    <Select aria-label={label} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as Role)}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </Select>
  );
}
