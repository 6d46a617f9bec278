-- SKUs are unique within an organization whatever their case. schema.prisma cannot express an index on
-- an expression, and the schema diff leaves this one alone. An organization holding two SKUs that differ
-- only by case must rename one before this migration applies.
CREATE UNIQUE INDEX "product_masters_organizationId_lower_sku_key" ON "product_masters" ("organizationId", lower("sku"));
