-- DropForeignKey
ALTER TABLE "demand_history" DROP CONSTRAINT "demand_history_locationId_fkey";

-- DropForeignKey
ALTER TABLE "demand_history" DROP CONSTRAINT "demand_history_organizationId_fkey";

-- DropForeignKey
ALTER TABLE "demand_history" DROP CONSTRAINT "demand_history_productMasterId_fkey";

-- DropIndex
DROP INDEX "product_masters_organizationId_id_idx";

-- CreateIndex
CREATE UNIQUE INDEX "locations_organizationId_id_key" ON "locations"("organizationId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "product_masters_organizationId_id_key" ON "product_masters"("organizationId", "id");

-- AddForeignKey
ALTER TABLE "demand_history" ADD CONSTRAINT "demand_history_organizationId_productMasterId_fkey" FOREIGN KEY ("organizationId", "productMasterId") REFERENCES "product_masters"("organizationId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "demand_history" ADD CONSTRAINT "demand_history_organizationId_locationId_fkey" FOREIGN KEY ("organizationId", "locationId") REFERENCES "locations"("organizationId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
