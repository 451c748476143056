import { z } from 'zod';
import { ZText, ZTimestamp } from '@/server/shared/schemas';
import { ZTimeZone } from '@/server/shared/time-zone';

export const ZSlug = ZText.min(2)
  .max(40)
  .regex(/^[a-z0-9-]+$/, 'use lower-case letters, digits and hyphens');

export const ZWorkspace = z
  .object({
    id: z.uuid().describe('The workspace’s id: send it as X-Service-Workspace to act for it'),
    name: z.string().describe('Its display name'),
    slug: z.string().describe('Its URL-safe handle, unique across Herald'),
    managedBy: z.uuid().nullable().describe('The agency workspace that manages it; null once detached'),
    timeZone: z.string().describe('IANA time zone the app schedules and shows times in'),
    createdAt: ZTimestamp.describe('When it was created'),
  })
  .meta({
    id: 'Workspace',
    description: 'A workspace: its own posts, accounts, keys and settings; a client’s is managed by its agency.',
    example: {
      id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
      name: 'Acme Coffee',
      slug: 'acme-coffee',
      managedBy: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b',
      timeZone: 'Europe/Berlin',
      createdAt: '2026-11-01T10:00:00.000Z',
    },
  });
export type WorkspaceDto = z.infer<typeof ZWorkspace>;

export const ZCreateWorkspaceInput = z.strictObject({
  name: ZText.trim().min(1).max(80).describe('The client workspace’s display name').meta({ example: 'Acme Coffee' }),
  slug: ZSlug.optional().describe('URL-safe handle, unique across Herald; derived from name when absent').meta({ example: 'acme-coffee' }),
  timeZone: ZTimeZone.optional().describe('IANA time zone, e.g. Europe/Berlin; UTC when absent; an unknown name is refused'),
});
export type CreateWorkspaceInput = z.infer<typeof ZCreateWorkspaceInput>;

export function toWorkspaceDto(w: { id: string; name: string; slug: string; managedById: string | null; timeZone: string; createdAt: Date }): WorkspaceDto {
  return { id: w.id, name: w.name, slug: w.slug, managedBy: w.managedById, timeZone: w.timeZone, createdAt: w.createdAt.toISOString() };
}
