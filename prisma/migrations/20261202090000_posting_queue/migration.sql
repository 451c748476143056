-- The posting queue (docs/decisions.md, "Posting queue"): weekly slots per workspace or account,
-- posts placed by it, and the workspace's pause.
-- AlterTable
ALTER TABLE "Post" ADD COLUMN     "queued" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "queuePausedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "QueueSlot" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "connectionId" UUID,
    "weekday" INTEGER NOT NULL,
    "minute" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QueueSlot_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "QueueSlot_workspaceId_connectionId_weekday_minute_key" ON "QueueSlot"("workspaceId", "connectionId", "weekday", "minute");

-- AddForeignKey
ALTER TABLE "QueueSlot" ADD CONSTRAINT "QueueSlot_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueueSlot" ADD CONSTRAINT "QueueSlot_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "Connection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A slot is a weekday (ISO: 1 Monday … 7 Sunday) and a minute of that day.
ALTER TABLE "QueueSlot" ADD CONSTRAINT "QueueSlot_time_check" CHECK ("weekday" BETWEEN 1 AND 7 AND "minute" BETWEEN 0 AND 1439);
