-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "timeZone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateIndex
CREATE INDEX "Notification_workspaceId_readAt_idx" ON "Notification"("workspaceId", "readAt");
