-- Client report links: a third kind of ClientLink (`report`) carrying the report's date range
-- (days in the workspace's time zone, both ends included) and an optional title.
ALTER TABLE "ClientLink" ADD COLUMN "reportFrom" DATE;
ALTER TABLE "ClientLink" ADD COLUMN "reportTo" DATE;
ALTER TABLE "ClientLink" ADD COLUMN "reportTitle" TEXT;

-- A report link always names its range; other kinds never do.
ALTER TABLE "ClientLink" ADD CONSTRAINT "ClientLink_report_range_check"
  CHECK (("kind" = 'report') = ("reportFrom" IS NOT NULL AND "reportTo" IS NOT NULL)
         AND ("reportFrom" IS NULL OR "reportFrom" <= "reportTo"));
