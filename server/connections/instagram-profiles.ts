// GET /instagram/profiles: the Instagram handles the workspace tracks, which are its connected
// Instagram business accounts. Gated by a platform-derived flag: the route exists only on a
// deployment that has a Meta app (META_APP_ID and META_APP_SECRET), the only way Instagram
// accounts are connected for real; elsewhere it answers exactly like an unknown route (the
// route's meta.enabled, checked first in the procedure chain).
import { env } from '@/server/config/env';
import { db } from '@/server/db/client';

export function instagramProfilesEnabled(): boolean {
  return Boolean(env.metaAppId() && env.metaAppSecret());
}

export async function listInstagramProfiles(workspaceId: string) {
  const rows = await db.connection.findMany({ where: { workspaceId, platform: 'instagram' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const newest = rows.reduce<Date | null>((m, r) => (!m || r.updatedAt > m ? r.updatedAt : m), null);
  return {
    data: rows.map((r) => ({
      connectionId: r.id,
      handle: r.accountName,
      displayName: r.displayName,
      avatarUrl: r.avatarUrl,
      provider: r.provider as 'sandbox' | 'live',
      status: r.status as 'active' | 'inactive',
      connectedAt: r.createdAt.toISOString(),
    })),
    provenance: { source: 'connections' as const, label: 'The workspace’s connected Instagram accounts', collectedAt: newest?.toISOString() ?? null },
  };
}
