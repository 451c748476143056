import { z } from 'zod';
import { ZText, ZTimestamp } from '@/server/shared/schemas';
import { ZTimeZone } from '@/server/shared/time-zone';

export const ZSlug = ZText.min(2)
  .max(40)
  .regex(/^[a-z0-9-]+$/, 'use lower-case letters, digits and hyphens');

export const ZWorkspace = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    managedBy: z.uuid().nullable(),
    timeZone: z.string().describe('IANA time zone the app schedules and shows times in'),
    createdAt: ZTimestamp,
  })
  .meta({ id: 'Workspace' });
export type WorkspaceDto = z.infer<typeof ZWorkspace>;

export const ZCreateWorkspaceInput = z.strictObject({
  name: ZText.trim().min(1).max(80).describe('The client workspace’s display name'),
  slug: ZSlug.optional().describe('URL-safe handle, unique across Herald; derived from name when absent'),
  timeZone: ZTimeZone.optional().describe('IANA time zone (the app sends the browser’s); UTC when absent'),
});
export type CreateWorkspaceInput = z.infer<typeof ZCreateWorkspaceInput>;

export function toWorkspaceDto(w: { id: string; name: string; slug: string; managedById: string | null; timeZone: string; createdAt: Date }): WorkspaceDto {
  return { id: w.id, name: w.name, slug: w.slug, managedBy: w.managedById, timeZone: w.timeZone, createdAt: w.createdAt.toISOString() };
}
