-- CreateEnum
CREATE TYPE "ForecastScenarioType" AS ENUM ('BASELINE', 'PROMOTIONAL', 'CONSERVATIVE', 'OPTIMISTIC', 'CHANNEL_LAUNCH', 'CUSTOM');

-- CreateEnum
CREATE TYPE "ForecastScenarioStatus" AS ENUM ('DRAFT', 'PUBLISHED', 'ARCHIVED');

-- CreateEnum
CREATE TYPE "ForecastChangeKind" AS ENUM ('GENERATE', 'PUBLISH', 'OVERRIDE', 'ARCHIVE');

-- CreateTable
CREATE TABLE "forecast_scenarios" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "type" "ForecastScenarioType" NOT NULL,
    "status" "ForecastScenarioStatus" NOT NULL DEFAULT 'DRAFT',
    "assumptions" JSONB,
    "createdByType" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "publishedByType" TEXT,
    "publishedBy" TEXT,
    "publishedAt" TIMESTAMP(3),
    "archivedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "forecast_scenarios_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "forecast_changes" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "scenarioId" TEXT NOT NULL,
    "kind" "ForecastChangeKind" NOT NULL,
    "productMasterId" TEXT,
    "locationId" TEXT,
    "channel" TEXT,
    "periodStart" DATE,
    "totalBefore" DOUBLE PRECISION,
    "totalAfter" DOUBLE PRECISION,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT clock_timestamp(),

    CONSTRAINT "forecast_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "forecast_scenarios_organizationId_status_createdAt_idx" ON "forecast_scenarios"("organizationId", "status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "forecast_scenarios_organizationId_id_key" ON "forecast_scenarios"("organizationId", "id");

-- CreateIndex
CREATE INDEX "forecast_changes_organizationId_createdAt_idx" ON "forecast_changes"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "forecast_changes_organizationId_scenarioId_createdAt_idx" ON "forecast_changes"("organizationId", "scenarioId", "createdAt");

-- CreateIndex
CREATE INDEX "forecast_changes_productMasterId_idx" ON "forecast_changes"("productMasterId");

-- CreateIndex
CREATE INDEX "forecast_changes_locationId_idx" ON "forecast_changes"("locationId");

-- AddForeignKey
ALTER TABLE "forecast_scenarios" ADD CONSTRAINT "forecast_scenarios_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "forecast_changes" ADD CONSTRAINT "forecast_changes_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "forecast_changes" ADD CONSTRAINT "forecast_changes_organizationId_scenarioId_fkey" FOREIGN KEY ("organizationId", "scenarioId") REFERENCES "forecast_scenarios"("organizationId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "forecast_changes" ADD CONSTRAINT "forecast_changes_productMasterId_fkey" FOREIGN KEY ("productMasterId") REFERENCES "product_masters"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "forecast_changes" ADD CONSTRAINT "forecast_changes_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "locations"("id") ON DELETE SET NULL ON UPDATE CASCADE;
