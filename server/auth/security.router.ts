// The Security screen's procedures (staff only, not part of the REST contract): a member's
// password, second factor and sessions; for agency owners, the two-factor requirement, the
// members and the security events. Each calls one service.
import { z } from 'zod';
import { readEnvelope, writeEnvelope, ZText } from '@/server/shared/schemas';
import { listSecurityEvents, ZListSecurityEventsInput, ZSecurityEvent } from '@/server/security-events/security-events';
import { staffProcedure, router } from '@/server/trpc/init';
import {
  changeMemberRole,
  listMembers,
  removeMember,
  ZChangeRoleInput,
  ZMember,
  ZRemoveMemberInput,
  leaveAgency,
  ZLeaveInput,
} from '@/server/workspaces/members';
import { inviteMember, listInvitations, revokeInvitation, ZInvitation, ZInvitationIdInput, ZInviteInput } from '@/server/workspaces/member-invitations';
import { accountSecurity, changePassword, ZAccountSecurity, ZChangePasswordInput } from './account';
import { endSession, endSessionsOf, listSessions, ZSession } from './staff-session';
import { confirmEnrolment, disableTwoFactor, regenerateRecoveryCodes, setTwoFactorRequirement, startEnrolment } from './two-factor';

const ZCode = z.strictObject({ code: ZText.min(1).max(40) });
const ZRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
const done = { data: { ok: true as const }, warnings: [] };
const ZDone = writeEnvelope(z.object({ ok: z.literal(true) }));

export const securityRouter = router({
  overview: staffProcedure.output(readEnvelope(ZAccountSecurity)).query(async ({ ctx }) => ({ data: await accountSecurity(ctx.staffUserId) })),

  changePassword: staffProcedure
    .input(ZChangePasswordInput)
    .output(writeEnvelope(z.object({ endedSessions: z.number().int() })))
    .mutation(async ({ ctx, input }) => ({ data: await changePassword(ctx.staffUserId, input, ctx.sessionToken), warnings: [] })),

  startTwoFactor: staffProcedure
    .output(writeEnvelope(z.object({ secret: z.string(), uri: z.string() })))
    .mutation(async ({ ctx }) => ({ data: await startEnrolment(ctx.staffUserId), warnings: [] })),

  confirmTwoFactor: staffProcedure
    .input(ZCode)
    .output(writeEnvelope(ZRecoveryCodes))
    .mutation(async ({ ctx, input }) => ({ data: await confirmEnrolment(ctx.staffUserId, input.code, ctx.sessionToken), warnings: [] })),

  disableTwoFactor: staffProcedure
    .input(ZCode)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await disableTwoFactor(ctx.staffUserId, input.code, ctx.sessionToken);
      return done;
    }),

  regenerateRecoveryCodes: staffProcedure
    .input(ZCode)
    .output(writeEnvelope(ZRecoveryCodes))
    .mutation(async ({ ctx, input }) => ({ data: await regenerateRecoveryCodes(ctx.staffUserId, input.code, ctx.sessionToken), warnings: [] })),

  requireTwoFactor: staffProcedure
    .input(z.strictObject({ workspaceId: z.uuid(), required: z.boolean() }))
    .output(writeEnvelope(z.object({ required: z.boolean() })))
    .mutation(async ({ ctx, input }) => ({ data: await setTwoFactorRequirement(ctx.staffUserId, input.workspaceId, input.required), warnings: [] })),

  sessions: staffProcedure.output(readEnvelope(z.array(ZSession))).query(async ({ ctx }) => ({ data: await listSessions(ctx.staffUserId, ctx.sessionToken) })),

  endSession: staffProcedure
    .input(z.strictObject({ id: z.uuid() }))
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await endSession(ctx.staffUserId, input.id);
      return done;
    }),

  endOtherSessions: staffProcedure.output(writeEnvelope(z.object({ ended: z.number().int() }))).mutation(async ({ ctx }) => ({
    data: { ended: await endSessionsOf(ctx.staffUserId, { keepToken: ctx.sessionToken }) },
    warnings: [],
  })),

  events: staffProcedure
    .input(ZListSecurityEventsInput)
    .output(readEnvelope(z.array(ZSecurityEvent)))
    .query(async ({ ctx, input }) => ({ data: await listSecurityEvents(ctx.staffUserId, input) })),

  members: staffProcedure.output(readEnvelope(z.array(ZMember))).query(async ({ ctx }) => ({ data: await listMembers(ctx.staffUserId) })),

  changeMemberRole: staffProcedure
    .input(ZChangeRoleInput)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await changeMemberRole(ctx.staffUserId, input);
      return done;
    }),

  removeMember: staffProcedure
    .input(ZRemoveMemberInput)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await removeMember(ctx.staffUserId, input);
      return done;
    }),

  invitations: staffProcedure.output(readEnvelope(z.array(ZInvitation))).query(async ({ ctx }) => ({ data: await listInvitations(ctx.staffUserId) })),

  invite: staffProcedure
    .input(ZInviteInput)
    .output(writeEnvelope(z.object({ invitation: ZInvitation, link: z.string() })))
    .mutation(async ({ ctx, input }) => ({ data: await inviteMember(ctx.staffUserId, input), warnings: [] })),

  revokeInvitation: staffProcedure
    .input(ZInvitationIdInput)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await revokeInvitation(ctx.staffUserId, input);
      return done;
    }),

  leave: staffProcedure
    .input(ZLeaveInput)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await leaveAgency(ctx.staffUserId, input);
      return done;
    }),
});
