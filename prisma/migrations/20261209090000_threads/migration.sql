-- Threads: a post's later parts, each posted as a reply to the one before on every target.
ALTER TABLE "Post" ADD COLUMN "parts" JSONB NOT NULL DEFAULT '[]';
CREATE INDEX "Post_parts_idx" ON "Post" USING GIN ("parts" jsonb_path_ops);

CREATE TABLE "PostThreadPart" (
  "targetId" UUID NOT NULL,
  "position" INTEGER NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "postedId" TEXT,
  "permalink" TEXT,
  "error" TEXT,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "content" TEXT NOT NULL,
  "mediaUrls" TEXT[],
  "checkpoint" TEXT,
  "startedAt" TIMESTAMP(3),
  "postedAt" TIMESTAMP(3),
  "confirmedAt" TIMESTAMP(3),
  "settlement" TEXT,
  CONSTRAINT "PostThreadPart_pkey" PRIMARY KEY ("targetId", "position")
);
ALTER TABLE "PostThreadPart" ADD CONSTRAINT "PostThreadPart_targetId_fkey" FOREIGN KEY ("targetId") REFERENCES "PostTarget"("id") ON DELETE CASCADE ON UPDATE CASCADE;
