// Who an actor is, in words a reviewer reads ("Dana Reyes", "API key “Zapier”").
import { db } from '@/server/db/client';
import type { Actor } from './actor';

export async function actorLabel(actor: Actor): Promise<string> {
  if (actor.kind === 'staff' && actor.userId) {
    const user = await db.user.findUnique({ where: { id: actor.userId }, select: { name: true, email: true } });
    return user?.name ?? user?.email ?? 'A member';
  }
  if (actor.keyId) {
    const key = await db.apiKey.findUnique({ where: { id: actor.keyId }, select: { name: true } });
    if (key) return `API key “${key.name}”`;
  }
  return 'An API key';
}
