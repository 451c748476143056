-- The engagement inbox, part 1 (comments): inbox items, saved replies, the comments schedule
-- per published target, the collection's outcome per account, and the reply-approval setting.
-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "commentsCollectedAt" TIMESTAMP(3),
ADD COLUMN     "commentsError" TEXT,
ADD COLUMN     "commentsErrorAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "PostTarget" ADD COLUMN     "commentsCheckedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "requireReplyApproval" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "InboxItem" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "connectionId" UUID NOT NULL,
    "targetId" UUID NOT NULL,
    "postId" UUID NOT NULL,
    "platform" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'comment',
    "externalId" TEXT,
    "parentExternalId" TEXT,
    "threadExternalId" TEXT,
    "authorExternalId" TEXT,
    "authorName" TEXT NOT NULL,
    "authorHandle" TEXT,
    "authorAvatarUrl" TEXT,
    "text" TEXT NOT NULL,
    "permalink" TEXT,
    "networkCreatedAt" TIMESTAMP(3) NOT NULL,
    "editedAt" TIMESTAMP(3),
    "deletedAt" TIMESTAMP(3),
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "liked" BOOLEAN NOT NULL DEFAULT false,
    "fromAccount" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'open',
    "assigneeId" UUID,
    "seenAt" TIMESTAMP(3),
    "repliedAt" TIMESTAMP(3),
    "source" TEXT NOT NULL,
    "collectedAt" TIMESTAMP(3) NOT NULL,
    "replyState" TEXT,
    "replyError" TEXT,
    "inReplyToId" UUID,
    "writtenBy" TEXT,
    "writtenById" UUID,
    "approvedBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InboxItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SavedReply" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SavedReply_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "InboxItem_workspaceId_networkCreatedAt_id_idx" ON "InboxItem"("workspaceId", "networkCreatedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "InboxItem_workspaceId_status_networkCreatedAt_idx" ON "InboxItem"("workspaceId", "status", "networkCreatedAt" DESC);

-- CreateIndex
CREATE INDEX "InboxItem_targetId_idx" ON "InboxItem"("targetId");

-- CreateIndex
CREATE INDEX "InboxItem_inReplyToId_idx" ON "InboxItem"("inReplyToId");

-- CreateIndex
CREATE UNIQUE INDEX "InboxItem_connectionId_kind_externalId_key" ON "InboxItem"("connectionId", "kind", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "SavedReply_workspaceId_title_key" ON "SavedReply"("workspaceId", "title");

-- AddForeignKey
ALTER TABLE "InboxItem" ADD CONSTRAINT "InboxItem_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InboxItem" ADD CONSTRAINT "InboxItem_targetId_fkey" FOREIGN KEY ("targetId") REFERENCES "PostTarget"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SavedReply" ADD CONSTRAINT "SavedReply_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The navigation's unread counts: open items from others that no member has opened yet.
CREATE INDEX "InboxItem_unread_idx" ON "InboxItem"("workspaceId") WHERE "seenAt" IS NULL AND "status" = 'open' AND NOT "fromAccount" AND "deletedAt" IS NULL;
