-- Follower counts per account, one a day (docs/analytics.md, "Followers"): read by the
-- post-metrics collector, shown by the connection rollup.
-- CreateTable
CREATE TABLE "FollowerReading" (
    "id" UUID NOT NULL,
    "connectionId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "collectedAt" TIMESTAMP(3) NOT NULL,
    "value" DOUBLE PRECISION,
    "reason" TEXT,
    "networkName" TEXT,
    "source" TEXT NOT NULL,

    CONSTRAINT "FollowerReading_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "FollowerReading_connectionId_day_key" ON "FollowerReading"("connectionId", "day");

-- AddForeignKey
ALTER TABLE "FollowerReading" ADD CONSTRAINT "FollowerReading_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "Connection"("id") ON DELETE CASCADE ON UPDATE CASCADE;
