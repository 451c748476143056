-- AlterTable
ALTER TABLE "PostTarget" ADD COLUMN     "engagement" INTEGER,
ADD COLUMN     "engagementCollectedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "timeZone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateTable
CREATE TABLE "AdAccount" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "accessToken" TEXT,
    "loginCustomerId" TEXT,
    "syncStatus" TEXT NOT NULL DEFAULT 'never',
    "lastSyncAt" TIMESTAMP(3),
    "lastSuccessAt" TIMESTAMP(3),
    "lastError" TEXT,
    "lastErrorAt" TIMESTAMP(3),
    "syncedThrough" DATE,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AdAccount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AdMetricDaily" (
    "accountId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "workspaceId" UUID NOT NULL,
    "impressions" BIGINT,
    "reach" BIGINT,
    "clicks" BIGINT,
    "spend" DECIMAL(18,6),
    "conversions" DECIMAL(18,4),
    "currency" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "collectedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AdMetricDaily_pkey" PRIMARY KEY ("accountId","day")
);

-- CreateTable
CREATE TABLE "CrawlSite" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "lastCrawlStartedAt" TIMESTAMP(3),
    "lastCrawlFinishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CrawlSite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CrawlPage" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "lastVisitId" UUID,
    "lastVisitAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CrawlPage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CrawlVisit" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "pageId" UUID NOT NULL,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "statusCode" INTEGER,
    "contentType" TEXT,
    "bytes" INTEGER,
    "durationMs" INTEGER NOT NULL,
    "title" TEXT,
    "metaDescription" TEXT,
    "canonical" TEXT,
    "headings" JSONB,
    "text" TEXT,
    "contentHash" TEXT,
    "userAgent" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CrawlVisit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CrawlChange" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "pageId" UUID NOT NULL,
    "fromVisitId" UUID NOT NULL,
    "toVisitId" UUID NOT NULL,
    "fields" TEXT[],
    "changes" JSONB NOT NULL,
    "diffSummary" JSONB NOT NULL,
    "detectedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CrawlChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AdAccount_workspaceId_idx" ON "AdAccount"("workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "AdAccount_workspaceId_source_externalId_key" ON "AdAccount"("workspaceId", "source", "externalId");

-- CreateIndex
CREATE INDEX "CrawlSite_workspaceId_createdAt_idx" ON "CrawlSite"("workspaceId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "CrawlSite_workspaceId_origin_key" ON "CrawlSite"("workspaceId", "origin");

-- CreateIndex
CREATE INDEX "CrawlPage_workspaceId_idx" ON "CrawlPage"("workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "CrawlPage_siteId_url_key" ON "CrawlPage"("siteId", "url");

-- CreateIndex
CREATE INDEX "CrawlVisit_pageId_startedAt_idx" ON "CrawlVisit"("pageId", "startedAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "CrawlChange_toVisitId_key" ON "CrawlChange"("toVisitId");

-- CreateIndex
CREATE INDEX "CrawlChange_siteId_detectedAt_idx" ON "CrawlChange"("siteId", "detectedAt" DESC);

-- CreateIndex
CREATE INDEX "CrawlChange_pageId_detectedAt_idx" ON "CrawlChange"("pageId", "detectedAt" DESC);

-- AddForeignKey
ALTER TABLE "AdAccount" ADD CONSTRAINT "AdAccount_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AdMetricDaily" ADD CONSTRAINT "AdMetricDaily_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "AdAccount"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CrawlSite" ADD CONSTRAINT "CrawlSite_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CrawlPage" ADD CONSTRAINT "CrawlPage_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "CrawlSite"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CrawlVisit" ADD CONSTRAINT "CrawlVisit_pageId_fkey" FOREIGN KEY ("pageId") REFERENCES "CrawlPage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CrawlChange" ADD CONSTRAINT "CrawlChange_pageId_fkey" FOREIGN KEY ("pageId") REFERENCES "CrawlPage"("id") ON DELETE CASCADE ON UPDATE CASCADE;
