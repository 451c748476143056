-- CreateTable
CREATE TABLE "PostCount" (
    "workspaceId" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "n" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "PostCount_pkey" PRIMARY KEY ("workspaceId","status","platform")
);

-- Counters kept by statement-level triggers on "Post": one row per (workspace, status,
-- platform) plus platform '*' for every post, so GET /posts answers `total` without counting
-- a million rows. Each statement applies all its deltas in one INSERT … ON CONFLICT ordered by
-- key, so concurrent writers lock counter rows in the same order and cannot deadlock.
CREATE FUNCTION herald_post_count_deltas() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "PostCount" AS c ("workspaceId", "status", "platform", "n")
    SELECT r."workspaceId", r."status", p, count(*)
    FROM new_rows r CROSS JOIN LATERAL unnest(array_append(r."platforms", '*')) AS p
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("workspaceId", "status", "platform") DO UPDATE SET "n" = c."n" + EXCLUDED."n";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "PostCount" AS c ("workspaceId", "status", "platform", "n")
    SELECT r."workspaceId", r."status", p, -count(*)
    FROM old_rows r CROSS JOIN LATERAL unnest(array_append(r."platforms", '*')) AS p
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("workspaceId", "status", "platform") DO UPDATE SET "n" = c."n" + EXCLUDED."n";
  ELSE
    -- Only rows whose status, platforms or workspace changed move between counters.
    INSERT INTO "PostCount" AS c ("workspaceId", "status", "platform", "n")
    SELECT d."workspaceId", d."status", d.p, sum(d.delta)
    FROM (
      SELECT o."workspaceId", o."status", p, -1 AS delta
      FROM old_rows o JOIN new_rows n ON n."id" = o."id" CROSS JOIN LATERAL unnest(array_append(o."platforms", '*')) AS p
      WHERE (o."status", o."platforms", o."workspaceId") IS DISTINCT FROM (n."status", n."platforms", n."workspaceId")
      UNION ALL
      SELECT n."workspaceId", n."status", p, 1 AS delta
      FROM old_rows o JOIN new_rows n ON n."id" = o."id" CROSS JOIN LATERAL unnest(array_append(n."platforms", '*')) AS p
      WHERE (o."status", o."platforms", o."workspaceId") IS DISTINCT FROM (n."status", n."platforms", n."workspaceId")
    ) d
    GROUP BY 1, 2, 3 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT ("workspaceId", "status", "platform") DO UPDATE SET "n" = c."n" + EXCLUDED."n";
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Post_count_insert" AFTER INSERT ON "Post" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION herald_post_count_deltas();
CREATE TRIGGER "Post_count_update" AFTER UPDATE ON "Post" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION herald_post_count_deltas();
CREATE TRIGGER "Post_count_delete" AFTER DELETE ON "Post" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION herald_post_count_deltas();

-- Posts that existed before the counters.
INSERT INTO "PostCount" ("workspaceId", "status", "platform", "n")
SELECT r."workspaceId", r."status", p, count(*)
FROM "Post" r CROSS JOIN LATERAL unnest(array_append(r."platforms", '*')) AS p
GROUP BY 1, 2, 3;
