-- The inbox's direct messages and reviews: items with no post (targetId, postId nullable), a
-- review's rating, a message's image, each account's reading state, and the log of the networks'
-- webhook deliveries (accepted ones by body digest, so a redelivery writes nothing twice).
-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "conversationsCheckedAt" TIMESTAMP(3),
ADD COLUMN     "conversationsError" TEXT,
ADD COLUMN     "conversationsErrorAt" TIMESTAMP(3),
ADD COLUMN     "messagesCursor" TEXT,
ADD COLUMN     "pushReceivedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "InboxItem" ADD COLUMN     "attachmentUrl" TEXT,
ADD COLUMN     "rating" INTEGER,
ADD COLUMN     "recommends" BOOLEAN,
ADD COLUMN     "newestInConversation" BOOLEAN NOT NULL DEFAULT true,
ALTER COLUMN "targetId" DROP NOT NULL,
ALTER COLUMN "postId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "NetworkWebhookDelivery" (
    "id" UUID NOT NULL,
    "network" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "digest" TEXT,
    "items" INTEGER NOT NULL DEFAULT 0,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NetworkWebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Connection_externalId_idx" ON "Connection"("externalId");

-- CreateIndex
CREATE INDEX "NetworkWebhookDelivery_receivedAt_idx" ON "NetworkWebhookDelivery"("receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "NetworkWebhookDelivery_network_digest_key" ON "NetworkWebhookDelivery"("network", "digest");

-- CreateIndex
CREATE INDEX "InboxItem_connectionId_threadExternalId_networkCreatedAt_idx" ON "InboxItem"("connectionId", "threadExternalId", "networkCreatedAt");

-- AddForeignKey
ALTER TABLE "InboxItem" ADD CONSTRAINT "InboxItem_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "Connection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "SandboxReceipt" ADD COLUMN     "text" TEXT;
