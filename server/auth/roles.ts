// Staff roles: the minimal set the contract implies. A role is a set of the contract's key
// scopes, so the procedure chain's one scope check enforces it for staff and keys alike.
//   owner    — everything, and the agency's owners become owners of the clients it creates
//   admin    — everything an owner can do (membership management is not in the app yet)
//   member   — publishes: posts, media, connections, workflows; no workspace or webhook admin
//   reviewer — reads, and approves or rejects posts waiting for approval; nothing else
import { z } from 'zod';
import { SCOPES, type Scope } from './scopes';

export const ROLES = ['owner', 'admin', 'member', 'reviewer'] as const;
export type Role = (typeof ROLES)[number];
export const ZRole = z.enum(ROLES);

const READ: readonly Scope[] = ['posts:read', 'connections:read', 'analytics:read'];

export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  owner: SCOPES,
  admin: SCOPES,
  member: [...READ, 'posts:write', 'media:write', 'workflows:run'],
  reviewer: READ,
};

/** Unknown role strings (a row written by hand) get the least: a reviewer's reads. */
export function toRole(value: string): Role {
  return (ROLES as readonly string[]).includes(value) ? (value as Role) : 'reviewer';
}

export function scopesOfRole(role: Role): readonly Scope[] {
  return ROLE_SCOPES[role];
}

/** Every role may approve or reject a post waiting for approval; it is the reviewer's one act. */
export function mayReview(role: Role): boolean {
  return (ROLES as readonly string[]).includes(role);
}

/** When a staff member is both in an agency and directly in its client, the stronger role counts. */
export function strongerRole(a: Role, b: Role): Role {
  return ROLES.indexOf(a) <= ROLES.indexOf(b) ? a : b;
}
