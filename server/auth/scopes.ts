// The eight key scopes of the contract (Authentication → 3).
import { z } from 'zod';

export const SCOPES = [
  'posts:read',
  'posts:write',
  'connections:read',
  'media:write',
  'analytics:read',
  'workflows:run',
  'webhooks:manage',
  'workspaces:manage',
] as const;

export type Scope = (typeof SCOPES)[number];

/** What each scope lets a key do, in words a member granting it reads. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'posts:read': 'read posts, their schedule and delivery outcomes',
  'posts:write': 'create, edit, schedule, publish and cancel posts',
  'connections:read': 'see the connected social accounts',
  'media:write': 'upload and delete images and videos',
  'analytics:read': 'read analytics, the crawl and best times',
  'workflows:run': 'run built-in workflows (repurpose a post, weekly digest)',
  'webhooks:manage': 'register and change webhook endpoints',
  'workspaces:manage': 'create client workspaces and mint their keys',
};
export const ZScope = z.enum(SCOPES);

export function hasScope(scopes: readonly string[], scope: Scope): boolean {
  return scopes.includes(scope);
}
