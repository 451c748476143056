-- Toolsets of the tool endpoint: an assistant connection (and the consent code that mints it)
-- keeps the toolsets the member chose; a session keeps the ones it opened with. Empty means
-- the default toolsets.
-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "toolsets" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "OAuthCode" ADD COLUMN "toolsets" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "McpSession" ADD COLUMN "toolsets" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- Sessions open before toolsets listed every tool: they keep doing so until they end.
UPDATE "McpSession" SET "toolsets" = ARRAY['publishing', 'automation', 'analytics', 'inbox', 'admin']::TEXT[] WHERE "endedAt" IS NULL;
