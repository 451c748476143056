-- The media library: every asset gets a name to show and search by (the upload's file name,
-- or a URL import's last path segment), and Post gets the indexes that answer "which posts
-- use this asset" (by asset id inside "media", by URL inside "mediaUrls").
-- AlterTable
ALTER TABLE "MediaAsset" ADD COLUMN "name" TEXT;

-- Existing assets: a URL import is named after its URL's last path segment (query and
-- fragment dropped), an upload (or a URL with no file name) after its kind, the first
-- characters of its id and the stored file's extension (server/media/asset-name.ts names new
-- ones the same way).
UPDATE "MediaAsset" SET "name" = COALESCE(
  NULLIF(substring(split_part(split_part("sourceUrl", '#', 1), '?', 1) FROM '[^/]+$'), ''),
  "kind" || '-' || left("id"::text, 8) || '.' || substring("storageKey" FROM '[^.]+$')
)
WHERE "source" = 'url' AND "sourceUrl" ~ '^[a-z]+://[^/]+/.*[^/]$';
UPDATE "MediaAsset" SET "name" = "kind" || '-' || left("id"::text, 8) || '.' || substring("storageKey" FROM '[^.]+$')
WHERE "name" IS NULL;

ALTER TABLE "MediaAsset" ALTER COLUMN "name" SET NOT NULL;

-- CreateIndex
CREATE INDEX "Post_media_idx" ON "Post" USING GIN ("media" jsonb_path_ops);

-- CreateIndex
CREATE INDEX "Post_mediaUrls_idx" ON "Post" USING GIN ("mediaUrls");
