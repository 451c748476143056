// Saved replies: answers a workspace keeps for the questions that come back (opening hours,
// shipping), picked in the inbox's reply box. Titles are unique per workspace.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { Prisma } from '@/server/generated/prisma/client';
import { isUuid } from '@/server/shared/schemas';

export interface SavedReplyDto {
  id: string;
  title: string;
  text: string;
  updatedAt: string;
}

const toDto = (r: { id: string; title: string; text: string; updatedAt: Date }): SavedReplyDto => ({ ...r, updatedAt: r.updatedAt.toISOString() });

export async function listSavedReplies(workspaceId: string): Promise<SavedReplyDto[]> {
  return (await db.savedReply.findMany({ where: { workspaceId }, orderBy: { title: 'asc' } })).map(toDto);
}

export async function saveReply(workspaceId: string, input: { title: string; text: string }): Promise<SavedReplyDto> {
  try {
    return toDto(
      await db.savedReply.upsert({
        where: { workspaceId_title: { workspaceId, title: input.title } },
        create: { workspaceId, ...input },
        update: { text: input.text },
      }),
    );
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return saveReply(workspaceId, input);
    throw error;
  }
}

export async function deleteSavedReply(workspaceId: string, id: string): Promise<void> {
  const deleted = isUuid(id) ? await db.savedReply.deleteMany({ where: { id, workspaceId } }) : { count: 0 };
  if (!deleted.count) throw new AppError('SAVED_REPLY_NOT_FOUND', 'No saved reply with that id in this workspace');
}
