-- Evergreen posts: a published post repeated through the posting queue, each repeat a new post
-- linked to its source.
-- AlterTable
ALTER TABLE "Post" ADD COLUMN "evergreenOf" UUID;

-- CreateTable
CREATE TABLE "EvergreenPost" (
    "id" UUID NOT NULL,
    "postId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "intervalDays" INTEGER NOT NULL,
    "texts" TEXT[],
    "endsAt" TIMESTAMP(3),
    "maxRepeats" INTEGER,
    "repeats" INTEGER NOT NULL DEFAULT 0,
    "nextDueAt" TIMESTAMP(3) NOT NULL,
    "lastQueuedPostId" UUID,
    "status" TEXT NOT NULL DEFAULT 'active',
    "endedReason" TEXT,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EvergreenPost_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Post_evergreenOf_createdAt_idx" ON "Post"("evergreenOf", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "EvergreenPost_postId_key" ON "EvergreenPost"("postId");

-- CreateIndex
CREATE INDEX "EvergreenPost_workspaceId_createdAt_idx" ON "EvergreenPost"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "EvergreenPost_status_nextDueAt_idx" ON "EvergreenPost"("status", "nextDueAt");

-- AddForeignKey
ALTER TABLE "EvergreenPost" ADD CONSTRAINT "EvergreenPost_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvergreenPost" ADD CONSTRAINT "EvergreenPost_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
