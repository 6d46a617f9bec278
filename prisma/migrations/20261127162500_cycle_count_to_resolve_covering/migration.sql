-- Mode to-resolve reads every counted, unresolved line of the location that differs from what was expected: the
-- partial index now carries the columns it reads (INCLUDE), so that reading them is an index-only scan rather than a
-- visit to every page of the table that holds one (about one page a line). Written by hand: the schema cannot declare
-- a partial index.
DROP INDEX "cycle_count_lines_to_resolve_idx";
CREATE INDEX "cycle_count_lines_to_resolve_idx" ON "cycle_count_lines"("batchId")
  INCLUDE ("productMasterId", "countedQty", "expectedQty", "id", "lotId", "binId", "countedAt")
  WHERE "resolution" IS NULL AND "countedQty" <> "expectedQty";
