-- The Posts view's rows (docs/performance.md, "Post results"): one row per published target
-- with its workspace, publishing instant and newest reading's counters, so top posts, the
-- per-network comparison and rollups rank and sum narrow rows in SQL instead of finding every
-- target's newest reading. The triggers below keep it; the application only reads it.
CREATE TABLE "PostTargetResult" (
    "targetId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "postId" UUID NOT NULL,
    "connectionId" UUID NOT NULL,
    "platform" TEXT NOT NULL,
    "publishedAt" TIMESTAMP(3) NOT NULL,
    "readingId" UUID,
    "collectedAt" TIMESTAMP(3),
    "source" TEXT,
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

    CONSTRAINT "PostTargetResult_pkey" PRIMARY KEY ("targetId")
);

-- CreateIndex
CREATE INDEX "PostTargetResult_workspaceId_publishedAt_idx" ON "PostTargetResult"("workspaceId", "publishedAt");

-- AddForeignKey
ALTER TABLE "PostTargetResult" ADD CONSTRAINT "PostTargetResult_targetId_fkey" FOREIGN KEY ("targetId") REFERENCES "PostTarget"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A target's row exists exactly while it is published. Written for every writer of targets
-- (delivery, the sandbox, the seed, imports) because it is kept here, not in each of them.
CREATE FUNCTION "post_target_result_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'published' AND NEW."publishedAt" IS NOT NULL THEN
    INSERT INTO "PostTargetResult" ("targetId", "workspaceId", "postId", "connectionId", "platform", "publishedAt")
    SELECT NEW."id", p."workspaceId", NEW."postId", NEW."connectionId", NEW."platform", NEW."publishedAt"
      FROM "Post" p WHERE p."id" = NEW."postId"
    ON CONFLICT ("targetId") DO UPDATE SET "publishedAt" = EXCLUDED."publishedAt";
    -- Readings written before the target was marked published (a seed, a repair) still count.
    UPDATE "PostTargetResult" l
       SET "readingId" = r."id", "collectedAt" = r."collectedAt", "source" = r."source",
           "impressions" = r."impressions", "reach" = r."reach", "views" = r."views", "reactions" = r."reactions",
           "comments" = r."comments", "shares" = r."shares", "saves" = r."saves", "linkClicks" = r."linkClicks",
           "videoWatchSeconds" = r."videoWatchSeconds", "engagement" = r."engagement"
      FROM (SELECT * FROM "PostMetricReading" x WHERE x."targetId" = NEW."id" ORDER BY x."collectedAt" DESC, x."id" DESC LIMIT 1) r
     WHERE l."targetId" = NEW."id" AND l."readingId" IS NULL;
  ELSE
    DELETE FROM "PostTargetResult" WHERE "targetId" = NEW."id";
  END IF;
  RETURN NULL;
END $$;

-- Only rows that are or were published wake it: the publishing path's other updates cost nothing.
CREATE TRIGGER "PostTarget_result_insert" AFTER INSERT ON "PostTarget"
  FOR EACH ROW WHEN (NEW."status" = 'published') EXECUTE FUNCTION "post_target_result_sync"();
CREATE TRIGGER "PostTarget_result_update" AFTER UPDATE OF "status", "publishedAt" ON "PostTarget"
  FOR EACH ROW WHEN (NEW."status" = 'published' OR OLD."status" = 'published') EXECUTE FUNCTION "post_target_result_sync"();

-- New readings move each target's row to its newest one ("newest": collectedAt, then id, as
-- GET /posts/{id}/metrics orders them). Once per statement: a batch of a collection is one update.
CREATE FUNCTION "post_target_result_reading"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "PostTargetResult" l
     SET "readingId" = r."id", "collectedAt" = r."collectedAt", "source" = r."source",
         "impressions" = r."impressions", "reach" = r."reach", "views" = r."views", "reactions" = r."reactions",
         "comments" = r."comments", "shares" = r."shares", "saves" = r."saves", "linkClicks" = r."linkClicks",
         "videoWatchSeconds" = r."videoWatchSeconds", "engagement" = r."engagement"
    FROM (SELECT DISTINCT ON (f."targetId") f.* FROM fresh f ORDER BY f."targetId", f."collectedAt" DESC, f."id" DESC) r
   WHERE l."targetId" = r."targetId"
     AND (l."readingId" IS NULL OR (r."collectedAt", r."id") > (l."collectedAt", l."readingId"));
  RETURN NULL;
END $$;

CREATE TRIGGER "PostMetricReading_result" AFTER INSERT ON "PostMetricReading"
  REFERENCING NEW TABLE AS fresh FOR EACH STATEMENT EXECUTE FUNCTION "post_target_result_reading"();

-- The targets published before this migration, with their newest readings.
INSERT INTO "PostTargetResult" ("targetId", "workspaceId", "postId", "connectionId", "platform", "publishedAt",
       "readingId", "collectedAt", "source", "impressions", "reach", "views", "reactions", "comments", "shares", "saves",
       "linkClicks", "videoWatchSeconds", "engagement")
SELECT t."id", p."workspaceId", t."postId", t."connectionId", t."platform", t."publishedAt",
       r."id", r."collectedAt", r."source", r."impressions", r."reach", r."views", r."reactions", r."comments", r."shares",
       r."saves", r."linkClicks", r."videoWatchSeconds", r."engagement"
  FROM "PostTarget" t
  JOIN "Post" p ON p."id" = t."postId"
  LEFT JOIN LATERAL (SELECT * FROM "PostMetricReading" x WHERE x."targetId" = t."id" ORDER BY x."collectedAt" DESC, x."id" DESC LIMIT 1) r ON true
 WHERE t."status" = 'published' AND t."publishedAt" IS NOT NULL;
