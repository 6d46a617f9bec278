-- AlterTable
ALTER TABLE "forecast_changes" ALTER COLUMN "scenarioId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "forecast_overrides" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "scenarioId" TEXT,
    "productMasterId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "channel" TEXT NOT NULL DEFAULT 'ALL',
    "periodStart" DATE NOT NULL,
    "quantity" DOUBLE PRECISION NOT NULL,
    "note" TEXT,
    "setByType" TEXT NOT NULL,
    "setBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "forecast_overrides_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "forecast_overrides_organizationId_productMasterId_locationI_idx" ON "forecast_overrides"("organizationId", "productMasterId", "locationId", "periodStart");

-- CreateIndex
CREATE INDEX "forecast_overrides_productMasterId_idx" ON "forecast_overrides"("productMasterId");

-- CreateIndex
CREATE INDEX "forecast_overrides_locationId_idx" ON "forecast_overrides"("locationId");

-- CreateIndex
CREATE UNIQUE INDEX "forecast_overrides_organizationId_scenarioId_productMasterI_key" ON "forecast_overrides"("organizationId", "scenarioId", "productMasterId", "locationId", "channel", "periodStart");

-- AddForeignKey
ALTER TABLE "forecast_overrides" ADD CONSTRAINT "forecast_overrides_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "forecast_overrides" ADD CONSTRAINT "forecast_overrides_organizationId_scenarioId_fkey" FOREIGN KEY ("organizationId", "scenarioId") REFERENCES "forecast_scenarios"("organizationId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "forecast_overrides" ADD CONSTRAINT "forecast_overrides_productMasterId_fkey" FOREIGN KEY ("productMasterId") REFERENCES "product_masters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "forecast_overrides" ADD CONSTRAINT "forecast_overrides_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "locations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One base override per point: NULL scenario ids are distinct in the unique index above.
CREATE UNIQUE INDEX "forecast_overrides_base_point_key" ON "forecast_overrides"("organizationId", "productMasterId", "locationId", "channel", "periodStart") WHERE "scenarioId" IS NULL;
