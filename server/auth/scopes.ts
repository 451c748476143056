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
export const ZScope = z.enum(SCOPES);

export function hasScope(scopes: readonly string[], scope: Scope): boolean {
  return scopes.includes(scope);
}
