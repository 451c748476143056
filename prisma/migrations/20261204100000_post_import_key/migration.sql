-- Imported posts (server/posts/post-import.ts): each carries its row's key, unique per
-- workspace, so uploading the same file again creates nothing new. Null for other posts
-- (PostgreSQL's unique index lets any number of NULLs through).
-- AlterTable
ALTER TABLE "Post" ADD COLUMN     "importKey" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Post_workspaceId_importKey_key" ON "Post"("workspaceId", "importKey");
