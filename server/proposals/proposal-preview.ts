// What a member needs to decide on a staged action, in the workspace's words: for an action
// on a post, the post as each account will show it, its media, its accounts and its time in
// the workspace's zone; for a destructive action, what it takes away. Read from the staged
// arguments (a post to create or edit) or from the post they name (publish, cancel, retry),
// so the member sees what will run now, not what the assistant remembered.
import { z } from 'zod';
import { db } from '@/server/db/client';
import { platformName } from '@/server/platforms/catalogue';
import { isUuid } from '@/server/shared/schemas';
import { formatInZone } from '@/server/shared/time-zone';
import { getProposal } from './proposals';

export const ZProposalPreview = z.object({
  post: z
    .object({
      /** What each account will show: the variant of its platform, or the common text. */
      accounts: z.array(z.object({ name: z.string(), platform: z.string(), text: z.string() })),
      media: z.array(z.string()),
      /** The moment in the workspace's zone, the zone named; null for "not scheduled". */
      when: z.string().nullable(),
      status: z.string().nullable(),
    })
    .nullable(),
  /** For an action that takes something away or sends something out: what, in numbers. */
  consequence: z.string().nullable(),
});
export type ProposalPreviewDto = z.infer<typeof ZProposalPreview>;

const POST_TOOLS_BY_ID = new Set(['posts_publish', 'posts_cancel', 'posts_retry', 'posts_update']);
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

interface PostShape {
  content: string;
  connectionIds: string[];
  variants: Record<string, { content?: string } | undefined> | null;
  media: string[];
  scheduledAt: Date | string | null;
  status: string | null;
  failedAccounts?: number;
}

export async function previewProposal(workspaceId: string, toolName: string, args: Record<string, unknown>): Promise<ProposalPreviewDto> {
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { timeZone: true } });
  let shape: PostShape | null = null;
  if (POST_TOOLS_BY_ID.has(toolName) && typeof args.id === 'string' && isUuid(args.id)) {
    const post = await db.post.findFirst({
      where: { id: args.id, workspaceId },
      select: { content: true, connectionIds: true, variants: true, media: true, scheduledAt: true, status: true, targets: { select: { status: true } } },
    });
    if (post) {
      shape = {
        content: post.content,
        connectionIds: post.connectionIds,
        variants: post.variants as PostShape['variants'],
        media: ((post.media as { url?: string }[] | null) ?? []).map((m) => m.url ?? '').filter(Boolean),
        scheduledAt: post.scheduledAt,
        status: post.status,
        failedAccounts: post.targets.filter((t) => t.status === 'failed').length,
      };
      // An edit shows the post as it will be: the staged changes over what is there.
      if (toolName === 'posts_update') shape = { ...shape, ...stagedPost(args, shape) };
    }
  } else if (toolName === 'posts_create' && typeof args.content === 'string') {
    shape = { ...stagedPost(args, null), status: null };
  }
  if (!shape) return { post: null, consequence: consequenceOf(toolName, null) };
  const names = new Map(
    (
      await db.connection.findMany({
        where: { id: { in: shape.connectionIds.filter(isUuid) }, workspaceId },
        select: { id: true, displayName: true, platform: true },
      })
    ).map((c) => [c.id, c]),
  );
  const accounts = shape.connectionIds.map((id) => {
    const c = names.get(id);
    const platform = c?.platform ?? 'unknown';
    return {
      name: c?.displayName ?? 'an account not in this workspace',
      platform: platformName(platform),
      text: shape.variants?.[platform]?.content ?? shape.content,
    };
  });
  return {
    post: { accounts, media: shape.media, when: shape.scheduledAt ? formatInZone(shape.scheduledAt, workspace.timeZone) : null, status: shape.status },
    consequence: consequenceOf(toolName, shape),
  };
}

/** The preview of a staged action of the workspace, by its id (PROPOSAL_NOT_FOUND otherwise). */
export async function previewStagedAction(workspaceId: string, actionId: string): Promise<ProposalPreviewDto> {
  const proposal = await getProposal(workspaceId, actionId);
  return previewProposal(workspaceId, proposal.toolName, proposal.arguments);
}

/** The post as the staged arguments describe it (over `base` for an edit). */
function stagedPost(args: Record<string, unknown>, base: PostShape | null): PostShape {
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
  return {
    content: typeof args.content === 'string' ? args.content : (base?.content ?? ''),
    connectionIds: strings(args.connectionIds) ?? base?.connectionIds ?? [],
    variants: (args.variants as PostShape['variants']) ?? base?.variants ?? null,
    media: strings(args.mediaUrls) ?? base?.media ?? [],
    scheduledAt: typeof args.scheduledAt === 'string' ? args.scheduledAt : args.scheduledAt === null ? null : (base?.scheduledAt ?? null),
    status: base?.status ?? null,
  };
}

function consequenceOf(toolName: string, post: PostShape | null): string | null {
  const accounts = post ? plural(new Set(post.connectionIds).size, 'account') : null;
  switch (toolName) {
    case 'posts_publish':
      return accounts ? `Publishes now to ${accounts}, in public; a published post is not taken back from the networks.` : null;
    case 'posts_retry':
      return post ? `Sends the post again to the ${plural(post.failedAccounts ?? 0, 'account')} where it failed.` : null;
    case 'posts_cancel':
      return accounts ? `Nothing will go out for 1 post, ${accounts}. It can be restored to a draft from its page.` : null;
    case 'webhooks_delete':
      return 'Deletes the endpoint and its whole delivery log; its receiver gets nothing more.';
    case 'webhooks_rotate_secret':
      return 'The receiver must switch to the new secret: deliveries signed with it fail verification until then.';
    case 'api_keys_revoke':
      return 'Everything using this key stops working from its next request.';
    case 'workspaces_detach':
      return 'The agency stops managing the workspace; its connect and review links stop working.';
    default:
      return null;
  }
}
