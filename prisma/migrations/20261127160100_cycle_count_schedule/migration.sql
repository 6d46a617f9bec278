-- CreateTable
CREATE TABLE "cycle_count_schedule" (
    "organizationId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "searchText" TEXT NOT NULL,
    "abcClass" "AbcClass",
    "lastCountedDate" DATE,
    "dueDate" DATE,

    CONSTRAINT "cycle_count_schedule_pkey" PRIMARY KEY ("organizationId","locationId","productMasterId")
);

-- CreateIndex
CREATE INDEX "cycle_count_schedule_organizationId_locationId_dueDate_sku__idx" ON "cycle_count_schedule"("organizationId", "locationId", "dueDate", "sku", "productMasterId");

-- CreateIndex
CREATE INDEX "cycle_count_schedule_productMasterId_idx" ON "cycle_count_schedule"("productMasterId");

-- Written by hand from here: the schema cannot declare functions or triggers.

-- The day a product of class cls last counted on last_counted is next due: the organization's frequency for the
-- class (an unclassified product counts as C), or, for an organization that never set one, the defaults of
-- cycle_count_settings' columns (30, 90 and 180 days, as DEFAULT_ABC_CONFIG in abc-config.ts says). Null when never
-- counted.
CREATE FUNCTION cycle_count_due_date(org TEXT, cls "AbcClass", last_counted DATE) RETURNS DATE LANGUAGE sql STABLE AS $$
  SELECT last_counted + COALESCE(
    (SELECT CASE cls WHEN 'A' THEN s."aFrequencyDays" WHEN 'B' THEN s."bFrequencyDays" ELSE s."cFrequencyDays" END
       FROM cycle_count_settings s WHERE s."organizationId" = org),
    CASE cls WHEN 'A' THEN 30 WHEN 'B' THEN 90 ELSE 180 END)
$$;

-- A level created or changed: its product's row takes its class and last count (statement-level, so a bulk write
-- of levels costs one join, not a trigger call per row).
CREATE FUNCTION cycle_count_schedule_from_levels() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cycle_count_schedule AS c ("organizationId", "locationId", "productMasterId", sku, "searchText", "abcClass", "lastCountedDate", "dueDate")
  SELECT n."organizationId", n."locationId", n."productMasterId", pm.sku, lower(pm.sku || E'\n' || pm.name), n."abcClass", n."lastCountedAt"::date,
         cycle_count_due_date(n."organizationId", n."abcClass", n."lastCountedAt"::date)
  FROM new_levels n JOIN product_masters pm ON pm.id = n."productMasterId"
  ON CONFLICT ("organizationId", "locationId", "productMasterId") DO UPDATE
    SET "abcClass" = EXCLUDED."abcClass", "lastCountedDate" = EXCLUDED."lastCountedDate", "dueDate" = EXCLUDED."dueDate"
    WHERE (c."abcClass", c."lastCountedDate") IS DISTINCT FROM (EXCLUDED."abcClass", EXCLUDED."lastCountedDate");
  RETURN NULL;
END $$;
CREATE TRIGGER cycle_count_schedule_levels_inserted AFTER INSERT ON inventory_levels
  REFERENCING NEW TABLE AS new_levels FOR EACH STATEMENT EXECUTE FUNCTION cycle_count_schedule_from_levels();
CREATE TRIGGER cycle_count_schedule_levels_updated AFTER UPDATE ON inventory_levels
  REFERENCING NEW TABLE AS new_levels FOR EACH STATEMENT EXECUTE FUNCTION cycle_count_schedule_from_levels();

-- A first stock line of a product at a location: the product is on the schedule there (never counted, unless a
-- level already put it there).
CREATE FUNCTION cycle_count_schedule_from_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cycle_count_schedule ("organizationId", "locationId", "productMasterId", sku, "searchText")
  SELECT DISTINCT n."organizationId", n."locationId", n."productMasterId", pm.sku, lower(pm.sku || E'\n' || pm.name)
  FROM new_lines n JOIN product_masters pm ON pm.id = n."productMasterId"
  ON CONFLICT ("organizationId", "locationId", "productMasterId") DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER cycle_count_schedule_lines_inserted AFTER INSERT ON stock_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION cycle_count_schedule_from_lines();

-- A level or stock line deleted (directly, or by the cascade of a product, location or organization): a product
-- whose level went but whose stock stays is never counted there, as without a level; one with neither leaves.
CREATE FUNCTION cycle_count_schedule_prune() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'inventory_levels' THEN
    UPDATE cycle_count_schedule c SET "abcClass" = NULL, "lastCountedDate" = NULL, "dueDate" = NULL
    FROM old_rows o
    WHERE c."organizationId" = o."organizationId" AND c."locationId" = o."locationId" AND c."productMasterId" = o."productMasterId";
  END IF;
  DELETE FROM cycle_count_schedule c USING old_rows o
  WHERE c."organizationId" = o."organizationId" AND c."locationId" = o."locationId" AND c."productMasterId" = o."productMasterId"
    AND NOT EXISTS (SELECT 1 FROM inventory_levels l WHERE l."productMasterId" = o."productMasterId" AND l."locationId" = o."locationId")
    AND NOT EXISTS (SELECT 1 FROM stock_lines s
                    WHERE s."organizationId" = o."organizationId" AND s."locationId" = o."locationId" AND s."productMasterId" = o."productMasterId");
  RETURN NULL;
END $$;
CREATE TRIGGER cycle_count_schedule_levels_deleted AFTER DELETE ON inventory_levels
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cycle_count_schedule_prune();
CREATE TRIGGER cycle_count_schedule_lines_deleted AFTER DELETE ON stock_lines
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cycle_count_schedule_prune();

-- A product's SKU or name changed: its rows sort and are found by the new ones.
CREATE FUNCTION cycle_count_schedule_from_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cycle_count_schedule c SET sku = n.sku, "searchText" = lower(n.sku || E'\n' || n.name)
  FROM new_products n JOIN old_products o ON o.id = n.id
  WHERE c."productMasterId" = n.id AND (n.sku, n.name) IS DISTINCT FROM (o.sku, o.name);
  RETURN NULL;
END $$;
CREATE TRIGGER cycle_count_schedule_products_updated AFTER UPDATE ON product_masters
  REFERENCING OLD TABLE AS old_products NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION cycle_count_schedule_from_products();

-- The organization's frequencies set or changed: every counted product of it is due anew.
CREATE FUNCTION cycle_count_schedule_from_settings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org TEXT := CASE WHEN TG_OP = 'DELETE' THEN OLD."organizationId" ELSE NEW."organizationId" END;
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD."aFrequencyDays", OLD."bFrequencyDays", OLD."cFrequencyDays") IS NOT DISTINCT FROM (NEW."aFrequencyDays", NEW."bFrequencyDays", NEW."cFrequencyDays") THEN
    RETURN NULL;
  END IF;
  UPDATE cycle_count_schedule c SET "dueDate" = cycle_count_due_date(org, c."abcClass", c."lastCountedDate")
  WHERE c."organizationId" = org AND c."lastCountedDate" IS NOT NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER cycle_count_schedule_settings_changed AFTER INSERT OR UPDATE OR DELETE ON cycle_count_settings
  FOR EACH ROW EXECUTE FUNCTION cycle_count_schedule_from_settings();

-- What the schedule holds for the data already there.
INSERT INTO cycle_count_schedule ("organizationId", "locationId", "productMasterId", sku, "searchText", "abcClass", "lastCountedDate", "dueDate")
SELECT l."organizationId", l."locationId", l."productMasterId", pm.sku, lower(pm.sku || E'\n' || pm.name), l."abcClass", l."lastCountedAt"::date,
       cycle_count_due_date(l."organizationId", l."abcClass", l."lastCountedAt"::date)
FROM inventory_levels l JOIN product_masters pm ON pm.id = l."productMasterId";
INSERT INTO cycle_count_schedule ("organizationId", "locationId", "productMasterId", sku, "searchText")
SELECT DISTINCT s."organizationId", s."locationId", s."productMasterId", pm.sku, lower(pm.sku || E'\n' || pm.name)
FROM stock_lines s JOIN product_masters pm ON pm.id = s."productMasterId"
ON CONFLICT ("organizationId", "locationId", "productMasterId") DO NOTHING;
