-- CreateEnum
CREATE TYPE "ExternalEventType" AS ENUM ('PROMOTION', 'PRICE_CHANGE', 'HOLIDAY', 'WEATHER', 'BOOKING', 'MACRO', 'OTHER');

-- CreateEnum
CREATE TYPE "StackingMode" AS ENUM ('MULTIPLICATIVE', 'ADDITIVE');

-- CreateTable
CREATE TABLE "external_events" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" "ExternalEventType" NOT NULL,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "endsAt" TIMESTAMP(3) NOT NULL,
    "liftPct" DOUBLE PRECISION,
    "stackingMode" "StackingMode",
    "valueDescription" TEXT,
    "isGlobal" BOOLEAN NOT NULL DEFAULT true,
    "isOrgWide" BOOLEAN NOT NULL DEFAULT true,
    "productMasterId" TEXT,
    "locationId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "external_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "external_events_organizationId_startsAt_idx" ON "external_events"("organizationId", "startsAt");

-- CreateIndex
CREATE INDEX "external_events_productMasterId_idx" ON "external_events"("productMasterId");

-- CreateIndex
CREATE INDEX "external_events_locationId_idx" ON "external_events"("locationId");

-- AddForeignKey
ALTER TABLE "external_events" ADD CONSTRAINT "external_events_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "external_events" ADD CONSTRAINT "external_events_productMasterId_fkey" FOREIGN KEY ("productMasterId") REFERENCES "product_masters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "external_events" ADD CONSTRAINT "external_events_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "locations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
