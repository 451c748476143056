-- Post results: every reading of a published target's metrics, kept as a history. A scheduled
-- reading names its slot (`1h`, `24h`, …) and is written once per slot; on-demand and seeded
-- readings have no slot. A counter is null when the network gave no value, with the reason in
-- "nullReasons" (never 0 in its place); "networkNames" keeps the network's own metric names.
CREATE TABLE "PostMetricReading" (
    "id" UUID NOT NULL,
    "targetId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "connectionId" UUID NOT NULL,
    "platform" TEXT NOT NULL,
    "slot" TEXT,
    "trigger" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "collectedAt" TIMESTAMP(3) NOT NULL,
    "impressions" DOUBLE PRECISION,
    "reach" DOUBLE PRECISION,
    "views" DOUBLE PRECISION,
    "reactions" DOUBLE PRECISION,
    "comments" DOUBLE PRECISION,
    "shares" DOUBLE PRECISION,
    "saves" DOUBLE PRECISION,
    "linkClicks" DOUBLE PRECISION,
    "videoWatchSeconds" DOUBLE PRECISION,
    "engagement" DOUBLE PRECISION,
    "nullReasons" JSONB NOT NULL DEFAULT '{}',
    "networkNames" JSONB NOT NULL DEFAULT '{}',
    CONSTRAINT "PostMetricReading_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "PostMetricReading_targetId_fkey" FOREIGN KEY ("targetId") REFERENCES "PostTarget"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "PostMetricReading_targetId_slot_key" ON "PostMetricReading"("targetId", "slot");
CREATE INDEX "PostMetricReading_targetId_collectedAt_idx" ON "PostMetricReading"("targetId", "collectedAt" DESC);
CREATE INDEX "PostMetricReading_workspaceId_collectedAt_idx" ON "PostMetricReading"("workspaceId", "collectedAt");
CREATE INDEX "PostMetricReading_connectionId_collectedAt_idx" ON "PostMetricReading"("connectionId", "collectedAt");

-- The due-collections sweep looks for published targets by publish time.
CREATE INDEX "PostTarget_status_publishedAt_idx" ON "PostTarget"("status", "publishedAt");

-- A connection's last metrics collection: a failure is recorded here (verbatim) and the
-- connection is left alone for a while; other connections are not affected.
ALTER TABLE "Connection" ADD COLUMN "metricsCollectedAt" TIMESTAMP(3);
ALTER TABLE "Connection" ADD COLUMN "metricsError" TEXT;
ALTER TABLE "Connection" ADD COLUMN "metricsErrorAt" TIMESTAMP(3);
