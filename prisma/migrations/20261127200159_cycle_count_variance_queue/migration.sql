-- The to-resolve queue: each count line carries its organization, location and SKU (as on the count sheet), the unit
-- cost when it was counted, and, while it waits to be resolved, the absolute value of its variance (units where
-- there is no cost). Mode to-resolve reads a page from one partial index in that order instead of joining every line
-- of every batch to its product and sorting them all. The service keeps varianceRank (recording a count sets it,
-- resolving, rejecting and cancelling clear it); existing lines are filled here. Hand-written: the schema cannot
-- declare a partial index, and the new NOT NULL columns need their values first.
ALTER TABLE "cycle_count_lines" ADD COLUMN "organizationId" TEXT,
ADD COLUMN "locationId" TEXT,
ADD COLUMN "sku" TEXT,
ADD COLUMN "unitCost" DECIMAL(14,4),
ADD COLUMN "varianceRank" DOUBLE PRECISION;

UPDATE "cycle_count_lines" c SET "organizationId" = b."organizationId", "locationId" = b."locationId"
FROM "cycle_count_batches" b WHERE b.id = c."batchId";

UPDATE "cycle_count_lines" c SET "sku" = pm.sku, "unitCost" = CASE WHEN c."countedQty" IS NOT NULL THEN pm."unitCost" END
FROM "product_masters" pm WHERE pm.id = c."productMasterId";

UPDATE "cycle_count_lines" c
SET "varianceRank" = ABS(COALESCE((c."countedQty" - c."expectedQty") * c."unitCost", c."countedQty" - c."expectedQty"))::float8
FROM "cycle_count_batches" b
WHERE b.id = c."batchId" AND b.status <> 'CANCELLED' AND c.resolution IS NULL AND c."countedQty" IS NOT NULL AND c."countedQty" <> c."expectedQty";

ALTER TABLE "cycle_count_lines" ALTER COLUMN "organizationId" SET NOT NULL,
ALTER COLUMN "locationId" SET NOT NULL,
ALTER COLUMN "sku" SET NOT NULL;

DROP INDEX "cycle_count_lines_to_resolve_idx";
CREATE INDEX "cycle_count_lines_variance_queue_idx" ON "cycle_count_lines"("organizationId", "locationId", "varianceRank" DESC, "sku", "id")
  WHERE "varianceRank" IS NOT NULL;
