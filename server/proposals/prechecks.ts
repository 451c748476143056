// What must hold for a staged action to run if it were confirmed now, per staged procedure:
// each entry calls the checks its service runs first (existence in the workspace, state
// rules, input rules), which write nothing. The staging step runs the entry before recording
// a proposal (a call that would fail is refused at once, with REST's code), and confirmation
// runs it again (an action gone stale while it waited fails there, before anything is
// queued). server/mcp/tool-surface.test.ts fails when a staged route has no entry.
import type { Actor } from '@/server/auth/actor';
import { mintRules } from '@/server/api-keys/mint-api-key';
import { findApiKey } from '@/server/api-keys/manage-api-keys';
import { ZMintKeyInput } from '@/server/api-keys/api-keys.schemas';
import { findClientLink } from '@/server/client-links/manage-client-links';
import { checkSetEvergreen } from '@/server/evergreen/evergreen';
import { ZSetEvergreenInput } from '@/server/evergreen/evergreen.schemas';
import { checkFeedChange } from '@/server/feeds/feeds';
import { ZCreateFeedInput, ZUpdateFeedInput } from '@/server/feeds/feeds.schemas';
import { checkInboxAction, findPendingDraft } from '@/server/inbox/act-on-inbox';
import { checkDeleteMediaAsset } from '@/server/media/media-assets';
import { checkCancelPost } from '@/server/posts/cancel-post';
import { checkCreatePost } from '@/server/posts/create-post';
import { checkDelivery } from '@/server/posts/delivery/deliver-post';
import { checkMarkPublished } from '@/server/posts/delivery/unconfirmed';
import { ZCreatePostInput, ZUpdatePostInput } from '@/server/posts/posts.schemas';
import { checkEdit } from '@/server/posts/update-post';
import { checkImport } from '@/server/posts/post-import';
import { ZImportInput } from '@/server/posts/post-import.schemas';
import { assertActive, checkRedeliver } from '@/server/webhooks/deliveries';
import { checkEndpointChange, findEndpoint } from '@/server/webhooks/endpoints';
import { ZCreateWebhookInput, ZUpdateWebhookInput } from '@/server/webhooks/webhooks.schemas';
import { getManagedWorkspace } from '@/server/workspaces/managed-workspaces';

type Args = Record<string, unknown>;
/** Throws the error the call itself would answer; resolves when it would run. */
export type Precheck = (actor: Actor, args: Args) => Promise<void>;

const id = (args: Args, name = 'id') => String(args[name]);
/** The body fields of a call whose input also carries path parameters. */
const body = (args: Args, ...params: string[]) => Object.fromEntries(Object.entries(args).filter(([k]) => !params.includes(k)));

export const stagedRouteChecks: Record<string, Precheck> = {
  'posts.create': (actor, args) => checkCreatePost(actor.workspaceId, ZCreatePostInput.parse(args)),
  'posts.update': async (actor, args) => void (await checkEdit(actor.workspaceId, id(args), ZUpdatePostInput.parse(body(args, 'id')))),
  'posts.import': (actor, args) => checkImport(actor.workspaceId, ZImportInput.parse(args)),
  'posts.cancel': (actor, args) => checkCancelPost(actor.workspaceId, id(args)),
  'posts.publish': (actor, args) => checkDelivery(actor.workspaceId, id(args), 'manual', { confirmNotPublished: args.confirmNotPublished === true }),
  'posts.markPublished': (actor, args) => checkMarkPublished(actor.workspaceId, id(args), id(args, 'targetId')),
  'posts.resend': async (actor, args) => {
    await checkMarkPublished(actor.workspaceId, id(args), id(args, 'targetId'));
    await checkDelivery(actor.workspaceId, id(args), 'retry', { confirmNotPublished: true });
  },
  'posts.retry': (actor, args) => checkDelivery(actor.workspaceId, id(args), 'retry', { confirmNotPublished: args.confirmNotPublished === true }),
  'media.delete': (actor, args) => checkDeleteMediaAsset(actor.workspaceId, id(args)),
  'webhooks.create': async (actor, args) => void (await checkEndpointChange(actor.workspaceId, null, ZCreateWebhookInput.parse(args))),
  'webhooks.update': async (actor, args) => void (await checkEndpointChange(actor.workspaceId, id(args), ZUpdateWebhookInput.parse(body(args, 'id')))),
  'webhooks.delete': async (actor, args) => void (await findEndpoint(actor.workspaceId, id(args))),
  'webhooks.rotateSecret': async (actor, args) => void (await findEndpoint(actor.workspaceId, id(args))),
  'webhooks.redeliver': async (actor, args) => void (await checkRedeliver(actor.workspaceId, id(args), id(args, 'deliveryId'))),
  'webhooks.test': async (actor, args) => assertActive(await findEndpoint(actor.workspaceId, id(args))),
  'webhooks.recover': async (actor, args) => assertActive(await findEndpoint(actor.workspaceId, id(args))),
  'workspaces.detach': async (actor, args) => void (await getManagedWorkspace(actor.homeWorkspaceId, id(args))),
  'workspaces.mintKey': async (actor, args) => {
    await getManagedWorkspace(actor.homeWorkspaceId, id(args));
    mintRules({ callerScopes: actor.scopes, input: ZMintKeyInput.parse(body(args, 'id')), forClient: true });
  },
  'workspaces.revokeLink': async (actor, args) =>
    void (await findClientLink({ agencyWorkspaceId: actor.homeWorkspaceId, workspaceId: id(args), linkId: id(args, 'linkId') })),
  'apiKeys.create': async (actor, args) =>
    void mintRules({ callerScopes: actor.scopes, input: ZMintKeyInput.parse(args), forClient: actor.workspaceId !== actor.homeWorkspaceId }),
  'inbox.reply': async (actor, args) => {
    const { item } = await checkInboxAction(actor, id(args), 'reply', String(args.text ?? ''));
    if (typeof args.draftId === 'string') await findPendingDraft(item.id, args.draftId);
  },
  'inbox.hide': async (actor, args) => void (await checkInboxAction(actor, id(args), 'hide')),
  'inbox.delete': async (actor, args) => void (await checkInboxAction(actor, id(args), 'delete')),
  'inbox.like': async (actor, args) => void (await checkInboxAction(actor, id(args), 'like')),
  'inbox.editReply': async (actor, args) => void (await checkInboxAction(actor, id(args), 'editReply', String(args.text ?? ''))),
  'inbox.deleteReply': async (actor, args) => void (await checkInboxAction(actor, id(args), 'deleteReply')),
  'feeds.create': async (actor, args) => void (await checkFeedChange(actor.workspaceId, null, ZCreateFeedInput.parse(args))),
  'feeds.update': async (actor, args) => void (await checkFeedChange(actor.workspaceId, id(args), ZUpdateFeedInput.parse(body(args, 'id')))),
  'evergreen.set': async (actor, args) => void (await checkSetEvergreen(actor.workspaceId, id(args), ZSetEvergreenInput.parse(body(args, 'id')))),
  'apiKeys.revoke': async (actor, args) => void (await findApiKey(actor.workspaceId, id(args))),
};
