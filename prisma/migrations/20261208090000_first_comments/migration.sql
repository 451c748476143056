-- A post's first comment, posted under it on every network that lets Herald comment.
ALTER TABLE "Post" ADD COLUMN "firstComment" TEXT;

ALTER TABLE "PostTarget"
  ADD COLUMN "firstCommentStatus" TEXT,
  ADD COLUMN "firstCommentId" TEXT,
  ADD COLUMN "firstCommentPermalink" TEXT,
  ADD COLUMN "firstCommentError" TEXT,
  ADD COLUMN "firstCommentAttempts" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "firstCommentStartedAt" TIMESTAMP(3);

-- Targets that landed before: their publisher posted any first comment itself (Facebook,
-- Instagram), so nothing is left to post for them.
UPDATE "PostTarget" SET "firstCommentStatus" = 'none' WHERE "status" = 'published';
