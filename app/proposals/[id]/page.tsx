// Where an assistant's `confirmUrl` leads: a member reads exactly what the assistant asked to
// do (the tool, its arguments, the workspace) and confirms or declines it. The decision runs
// through server/proposals, the same services as the app's procedures.
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { currentStaffUserId } from '@/server/auth/staff-auth';
import { AppError } from '@/server/errors/app-error';
import { ProposalPreview } from '@/app/_ui/proposal-preview';
import { formatInZone } from '@/server/shared/time-zone';
import { decideAsMember, proposalForMember, type ProposalForMember } from '@/server/proposals/member-review';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ error?: string }> };

const STATUS_TEXT: Record<string, string> = {
  staged: 'Waiting for a member',
  confirmed: 'Confirmed — running now',
  executed: 'Confirmed and done',
  failed: 'Confirmed, but the action failed',
  declined: 'Declined',
  expired: 'Expired: nobody decided in time',
};

async function decide(id: string, formData: FormData) {
  'use server';
  const userId = await currentStaffUserId();
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent(`/proposals/${id}`)}`);
  const decision = formData.get('decision') === 'confirm' ? 'confirm' : 'decline';
  const reason = formData.get('reason');
  let error: string | null = null;
  try {
    await decideAsMember(userId, { id, decision, reason: typeof reason === 'string' ? reason : undefined });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    error = err.message;
  }
  revalidatePath(`/proposals/${id}`);
  redirect(`/proposals/${id}${error ? `?error=${encodeURIComponent(error)}` : ''}`);
}

export default async function ProposalPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { error } = await searchParams;
  const userId = await currentStaffUserId();
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent(`/proposals/${id}`)}`);
  let found: ProposalForMember;
  try {
    found = await proposalForMember(userId, id);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return (
      <main className="auth-page">
        <section className="card proposal-card">
          <h1>Staged action not found</h1>
          <p className="error" role="alert">
            {err.message}. It may belong to a workspace you are not a member of.
          </p>
          <Link href="/">Back to Herald</Link>
        </section>
      </main>
    );
  }
  const { proposal, workspace, preview } = found;
  const action = decide.bind(null, proposal.actionId);
  const outcomeError = proposal.outcome && !proposal.outcome.ok ? proposal.outcome.error : null;
  return (
    <main className="auth-page">
      <section className="card proposal-card" aria-labelledby="proposal-title">
        <p className="muted">An assistant asks to act in {workspace.name}</p>
        <h1 id="proposal-title">{proposal.title}</h1>
        <p>
          <span className="badge" data-status={proposal.status}>
            {STATUS_TEXT[proposal.status] ?? proposal.status}
          </span>
        </p>
        <dl className="proposal-facts">
          <dt>Tool</dt>
          <dd>
            <code>{proposal.toolName}</code>
          </dd>
          <dt>Asked</dt>
          <dd>
            <time dateTime={proposal.createdAt}>{formatInZone(proposal.createdAt, workspace.timeZone)}</time>
          </dd>
          <dt>{proposal.status === 'staged' ? 'Expires' : 'Decided'}</dt>
          <dd>
            <time dateTime={proposal.decidedAt ?? proposal.expiresAt}>{formatInZone(proposal.decidedAt ?? proposal.expiresAt, workspace.timeZone)}</time>
          </dd>
          {proposal.declineReason ? (
            <>
              <dt>Reason</dt>
              <dd>{proposal.declineReason}</dd>
            </>
          ) : null}
        </dl>
        {preview.post || preview.consequence ? (
          <>
            <h2>What it does</h2>
            <ProposalPreview preview={preview} />
          </>
        ) : null}
        <details>
          <summary>Exactly what will run</summary>
          <pre className="proposal-arguments">{JSON.stringify(proposal.arguments, null, 2)}</pre>
        </details>
        {outcomeError ? (
          <p className="error" role="alert">
            {outcomeError.code}: {outcomeError.message}
          </p>
        ) : null}
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        {proposal.status === 'staged' ? (
          <form action={action}>
            <label className="field">
              Reason for declining (optional)
              <textarea name="reason" maxLength={500} rows={2} />
            </label>
            <div className="proposal-buttons">
              <button className="button" type="submit" name="decision" value="confirm">
                Confirm and run
              </button>
              <button className="button secondary" type="submit" name="decision" value="decline">
                Decline
              </button>
            </div>
          </form>
        ) : null}
      </section>
    </main>
  );
}
