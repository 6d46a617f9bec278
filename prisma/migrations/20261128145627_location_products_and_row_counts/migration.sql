-- CreateTable
CREATE TABLE "location_products" (
    "organizationId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "sku" TEXT NOT NULL,

    CONSTRAINT "location_products_pkey" PRIMARY KEY ("locationId","productMasterId")
);

-- CreateTable
CREATE TABLE "row_count_deltas" (
    "id" BIGSERIAL NOT NULL,
    "organizationId" TEXT NOT NULL,
    "counted" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "delta" BIGINT NOT NULL,

    CONSTRAINT "row_count_deltas_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "location_products_organizationId_locationId_sku_productMast_idx" ON "location_products"("organizationId", "locationId", "sku", "productMasterId");

-- CreateIndex
CREATE INDEX "row_count_deltas_organizationId_counted_scopeId_delta_idx" ON "row_count_deltas"("organizationId", "counted", "scopeId", "delta");

-- AddForeignKey
ALTER TABLE "location_products" ADD CONSTRAINT "location_products_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "location_products" ADD CONSTRAINT "location_products_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "locations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "location_products" ADD CONSTRAINT "location_products_productMasterId_fkey" FOREIGN KEY ("productMasterId") REFERENCES "product_masters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "row_count_deltas" ADD CONSTRAINT "row_count_deltas_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written from here: what the tables hold now, then the triggers that keep them (issue 25, docs/lists.md).
-- The location_products rows of the stock lines there are.
INSERT INTO "location_products" ("organizationId", "locationId", "productMasterId", "sku")
SELECT DISTINCT s."organizationId", s."locationId", s."productMasterId", p.sku
FROM "stock_lines" s JOIN "product_masters" p ON p.id = s."productMasterId";

-- One delta per scope for what exists now.
INSERT INTO "row_count_deltas" ("organizationId", counted, "scopeId", delta)
SELECT "organizationId", 'products', '', COUNT(*) FROM "product_masters" GROUP BY 1
UNION ALL SELECT "organizationId", 'stock_lines', '', COUNT(*) FROM "stock_lines" GROUP BY 1
UNION ALL SELECT "organizationId", 'stock_lines', "locationId", COUNT(*) FROM "stock_lines" GROUP BY 1, 3
UNION ALL SELECT "organizationId", 'location_products', "locationId", COUNT(*) FROM "location_products" GROUP BY 1, 3;

-- Rows a statement took away count down only while their organization exists: when an organization is deleted,
-- its deltas go with it (the cascade), and a delta written for it then would break the foreign key.
CREATE FUNCTION row_counts_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_count_deltas ("organizationId", counted, "scopeId", delta)
    SELECT "organizationId", 'products', '', COUNT(*) FROM new_rows GROUP BY 1;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO row_count_deltas ("organizationId", counted, "scopeId", delta)
    SELECT r."organizationId", 'products', '', -COUNT(*) FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = r."organizationId") GROUP BY 1;
  ELSE
    -- A changed SKU is the sort key of the locations' product pages.
    UPDATE location_products lp SET sku = n.sku
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.sku IS DISTINCT FROM o.sku AND lp."productMasterId" = n.id;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION row_counts_stock_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_count_deltas ("organizationId", counted, "scopeId", delta)
    SELECT "organizationId", 'stock_lines', '', COUNT(*) FROM new_rows GROUP BY 1
    UNION ALL SELECT "organizationId", 'stock_lines', "locationId", COUNT(*) FROM new_rows GROUP BY 1, 3;
    -- In key order, so two statements adding the same pairs wait for each other instead of deadlocking.
    INSERT INTO location_products ("organizationId", "locationId", "productMasterId", sku)
    SELECT k.o, k.l, k.p, p.sku
    FROM (SELECT DISTINCT "organizationId" AS o, "locationId" AS l, "productMasterId" AS p FROM new_rows) k
    JOIN product_masters p ON p.id = k.p
    ORDER BY k.l, k.p
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO row_count_deltas ("organizationId", counted, "scopeId", delta)
    SELECT q.o, 'stock_lines', q.scope, -q.n FROM (
      SELECT "organizationId" AS o, '' AS scope, COUNT(*) AS n FROM old_rows GROUP BY 1
      UNION ALL SELECT "organizationId", "locationId", COUNT(*) FROM old_rows GROUP BY 1, 2
    ) q WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = q.o);
    DELETE FROM location_products lp
    USING (SELECT DISTINCT "locationId" AS l, "productMasterId" AS p FROM old_rows) k
    WHERE lp."locationId" = k.l AND lp."productMasterId" = k.p
      AND NOT EXISTS (SELECT 1 FROM stock_lines s WHERE s."locationId" = k.l AND s."productMasterId" = k.p);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION row_counts_location_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO row_count_deltas ("organizationId", counted, "scopeId", delta)
    SELECT "organizationId", 'location_products', "locationId", COUNT(*) FROM new_rows GROUP BY 1, 3;
  ELSE
    INSERT INTO row_count_deltas ("organizationId", counted, "scopeId", delta)
    SELECT r."organizationId", 'location_products', r."locationId", -COUNT(*) FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = r."organizationId") GROUP BY 1, 3;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER row_counts_products_inserted AFTER INSERT ON product_masters
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_products();
CREATE TRIGGER row_counts_products_deleted AFTER DELETE ON product_masters
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_products();
CREATE TRIGGER row_counts_products_updated AFTER UPDATE ON product_masters
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_products();
CREATE TRIGGER row_counts_stock_lines_inserted AFTER INSERT ON stock_lines
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_stock_lines();
CREATE TRIGGER row_counts_stock_lines_deleted AFTER DELETE ON stock_lines
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_stock_lines();
CREATE TRIGGER row_counts_location_products_inserted AFTER INSERT ON location_products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_location_products();
CREATE TRIGGER row_counts_location_products_deleted AFTER DELETE ON location_products
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_location_products();
