-- Feeds: RSS and Atom feeds a workspace follows, and the items already used (one post each).
-- CreateTable
CREATE TABLE "Feed" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "connectionIds" UUID[],
    "mode" TEXT NOT NULL DEFAULT 'draft',
    "template" TEXT NOT NULL,
    "useImage" BOOLEAN NOT NULL DEFAULT true,
    "status" TEXT NOT NULL DEFAULT 'active',
    "lastCheckedAt" TIMESTAMP(3),
    "lastError" TEXT,
    "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Feed_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FeedItem" (
    "id" UUID NOT NULL,
    "feedId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "postId" UUID,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FeedItem_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Feed_workspaceId_createdAt_idx" ON "Feed"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "Feed_status_lastCheckedAt_idx" ON "Feed"("status", "lastCheckedAt");

-- CreateIndex
CREATE UNIQUE INDEX "FeedItem_feedId_key_key" ON "FeedItem"("feedId", "key");

-- AddForeignKey
ALTER TABLE "Feed" ADD CONSTRAINT "Feed_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeedItem" ADD CONSTRAINT "FeedItem_feedId_fkey" FOREIGN KEY ("feedId") REFERENCES "Feed"("id") ON DELETE CASCADE ON UPDATE CASCADE;
