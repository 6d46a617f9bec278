-- Mode to-resolve reads the counted, unresolved lines that differ from what was expected: a few among the lines of
-- every count ever made. A partial index keeps its scan to them (written by hand: the schema cannot declare one).
CREATE INDEX "cycle_count_lines_to_resolve_idx" ON "cycle_count_lines"("batchId") WHERE "resolution" IS NULL AND "countedQty" <> "expectedQty";
