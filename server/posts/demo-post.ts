// The page a demo (sandbox) account's permalink opens: the post as the demo account "published"
// it, inside Herald. A demo account never reaches a network, so its permalink must not name an
// address there (it would be someone else's account, or nothing); it names this page instead
// (sandboxPermalink). No login: the permalink travels to clients in reports like a real one,
// and the posted id is random (56 bits), so it is as hard to guess as the network's own ids.
import { db } from '@/server/db/client';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';

export interface DemoPost {
  platform: Platform;
  accountName: string;
  displayName: string;
  /** The text the demo account published (the platform's variant when there was one). */
  content: string;
  mediaCount: number;
  publishedAt: string | null;
  timeZone: string;
}

/** The published demo post with this id on this platform; null for anything else (a real account's post included). */
export async function readDemoPost(platform: string, postedId: string): Promise<DemoPost | null> {
  if (!(PLATFORMS as readonly string[]).includes(platform) || postedId.length > 100) return null;
  const target = await db.postTarget.findFirst({
    where: { platform, postedId, status: 'published', connection: { provider: 'sandbox' } },
    select: {
      publishedAt: true,
      trackedContent: true,
      connection: { select: { accountName: true, displayName: true } },
      post: { select: { content: true, variants: true, mediaUrls: true, workspace: { select: { timeZone: true } } } },
    },
  });
  if (!target) return null;
  const variants = (target.post.variants ?? {}) as Partial<Record<string, { content?: string }>>;
  return {
    platform: platform as Platform,
    accountName: target.connection.accountName,
    displayName: target.connection.displayName,
    // What was sent: the text with its tracked links when the workspace tracked them.
    content: target.trackedContent ?? variants[platform]?.content ?? target.post.content,
    mediaCount: target.post.mediaUrls.length,
    publishedAt: target.publishedAt?.toISOString() ?? null,
    timeZone: target.post.workspace.timeZone,
  };
}
