-- Inbox drafts and response times: replies prepared for an inbox item (sent or discarded by a
-- member, never by themselves), and each workspace's target time for a first reply.
-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN "responseTargetMinutes" INTEGER NOT NULL DEFAULT 240;

-- CreateTable
CREATE TABLE "InboxDraft" (
    "id" UUID NOT NULL,
    "itemId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "authoredBy" TEXT NOT NULL,
    "authoredById" UUID,
    "byAssistant" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "sentReplyId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InboxDraft_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "InboxDraft_itemId_createdAt_idx" ON "InboxDraft"("itemId", "createdAt");

-- CreateIndex
CREATE INDEX "InboxDraft_workspaceId_status_idx" ON "InboxDraft"("workspaceId", "status");

-- AddForeignKey
ALTER TABLE "InboxDraft" ADD CONSTRAINT "InboxDraft_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "InboxItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InboxDraft" ADD CONSTRAINT "InboxDraft_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
