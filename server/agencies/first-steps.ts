// The guided first hour: what a new agency has done of the steps that make Herald useful,
// read from what exists (nothing to tick by hand). The dashboard shows the list until every
// step is done, each with the page that does it.
import { z } from 'zod';
import type { Actor } from '@/server/auth/actor';
import { AppError } from '@/server/errors/app-error';
import { db } from '@/server/db/client';
import { saveConnectedAccount } from '@/server/connections/save-connected-account';
import { sandboxAccount } from '@/server/connect/sandbox-account';
import type { Platform } from '@/server/shared/platforms';

export const FIRST_STEPS = ['verifyEmail', 'connectAccount', 'firstPost', 'addClient', 'apiKey', 'assistant'] as const;
export const ZFirstSteps = z.object({
  done: z.record(z.enum(FIRST_STEPS), z.boolean()),
  allDone: z.boolean(),
});
export type FirstStepsDto = z.infer<typeof ZFirstSteps>;

/** The agency's steps (the home workspace of the member: an agency's first hour, not a client's). */
export async function firstSteps(actor: Actor): Promise<FirstStepsDto> {
  const agencyId = actor.homeWorkspaceId;
  const [user, connections, posts, clients, keys, assistants] = await Promise.all([
    actor.userId ? db.user.findUnique({ where: { id: actor.userId }, select: { signedUpAt: true, emailVerified: true } }) : null,
    db.connection.count({ where: { OR: [{ workspaceId: agencyId }, { workspace: { managedById: agencyId } }] } }),
    db.post.count({ where: { OR: [{ workspaceId: agencyId }, { workspace: { managedById: agencyId } }] } }),
    db.workspace.count({ where: { managedById: agencyId, deletedAt: null } }),
    db.apiKey.count({ where: { workspaceId: agencyId, oauthClientId: null } }),
    db.apiKey.count({ where: { workspaceId: agencyId, oauthClientId: { not: null } } }),
  ]);
  const done = {
    verifyEmail: !user || user.signedUpAt === null || user.emailVerified !== null,
    connectAccount: connections > 0,
    firstPost: posts > 0,
    addClient: clients > 0,
    apiKey: keys > 0,
    assistant: assistants > 0,
  };
  return { done, allDone: Object.values(done).every(Boolean) };
}

/**
 * A sandbox account in the acting workspace, to try Herald with: it publishes nowhere (every
 * post to it lands in the sandbox), and it is marked so everywhere.
 */
export async function addSandboxAccount(actor: Actor, platform: Platform): Promise<{ id: string }> {
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: actor.workspaceId }, select: { id: true, name: true, demoAccounts: true } });
  if (!workspace.demoAccounts) throw new AppError('VALIDATION_FAILED', 'Demo accounts are switched off for this workspace (Settings)', { field: 'platform' });
  // A workspace adding its own account tells nobody (the issuer is the workspace itself).
  const saved = await saveConnectedAccount({
    link: { issuedById: workspace.id, workspace },
    platform,
    provider: 'sandbox',
    account: sandboxAccount(platform, workspace.name),
  });
  return { id: saved.id };
}
