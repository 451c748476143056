// Who is calling, and for which workspace. Every service takes an Actor (or just the
// workspace id from it), never a transport context, so REST, tRPC, tools and jobs share it.
import type { Role } from './roles';
import type { Scope } from './scopes';

export interface Actor {
  kind: 'apiKey' | 'staff';
  /** The workspace this request acts on (the key's own, or a managed one selected by header). */
  workspaceId: string;
  /** The workspace the key or staff member belongs to. */
  homeWorkspaceId: string;
  scopes: readonly Scope[];
  keyId?: string;
  userId?: string;
  /** A staff member's role in `workspaceId` (server/auth/roles.ts). */
  role?: Role;
  /** A member who signed up and has not verified their email yet (limited scopes: staff-actor.ts). */
  unverified?: boolean;
}
