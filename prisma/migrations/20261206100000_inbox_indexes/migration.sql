-- The inbox list filtered by network or by post, newest first, reads only that network's or
-- that post's items: without these, a network with few items among many, or any one post, was
-- a scan of the whole table (bench/inbox.ts: 40 to 70 ms at 100,000 items, growing with it).
-- CreateIndex
CREATE INDEX "InboxItem_workspaceId_platform_networkCreatedAt_id_idx" ON "InboxItem"("workspaceId", "platform", "networkCreatedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "InboxItem_postId_networkCreatedAt_id_idx" ON "InboxItem"("postId", "networkCreatedAt" DESC, "id" DESC);
