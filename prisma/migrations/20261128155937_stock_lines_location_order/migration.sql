-- CreateIndex
CREATE INDEX "stock_lines_organizationId_locationId_id_idx" ON "stock_lines"("organizationId", "locationId", "id");
