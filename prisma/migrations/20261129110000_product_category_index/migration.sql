-- A category's products (its connection, its count, and the SET NULL when it is deleted) by index.
CREATE INDEX "product_masters_categoryId_id_idx" ON "product_masters"("categoryId", "id");
