-- Tracked links: a workspace setting, the short links made for the links in its posts, each
-- target's text with them, and clicks counted per link and day (no visitor data).
-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN "trackLinks" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "utmTemplate" TEXT NOT NULL DEFAULT 'utm_source={network}&utm_medium=social&utm_campaign=herald';

-- AlterTable
ALTER TABLE "PostTarget" ADD COLUMN "trackedContent" TEXT;

-- CreateTable
CREATE TABLE "TrackedLink" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "postId" UUID NOT NULL,
    "platform" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TrackedLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LinkClickDay" (
    "linkId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "clicks" INTEGER NOT NULL,

    CONSTRAINT "LinkClickDay_pkey" PRIMARY KEY ("linkId","day")
);

-- CreateIndex
CREATE UNIQUE INDEX "TrackedLink_code_key" ON "TrackedLink"("code");

-- CreateIndex
CREATE INDEX "TrackedLink_workspaceId_createdAt_idx" ON "TrackedLink"("workspaceId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "TrackedLink_postId_platform_url_key" ON "TrackedLink"("postId", "platform", "url");

-- AddForeignKey
ALTER TABLE "TrackedLink" ADD CONSTRAINT "TrackedLink_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TrackedLink" ADD CONSTRAINT "TrackedLink_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LinkClickDay" ADD CONSTRAINT "LinkClickDay_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "TrackedLink"("id") ON DELETE CASCADE ON UPDATE CASCADE;
