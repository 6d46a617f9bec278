-- Trigram search (pg_trgm ships with PostgreSQL; a trusted extension since 13, so a database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateIndex
CREATE INDEX "product_masters_sku_trgm_idx" ON "product_masters" USING GIN ("sku" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "product_masters_name_trgm_idx" ON "product_masters" USING GIN ("name" gin_trgm_ops);
