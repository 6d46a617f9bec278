-- CreateEnum
CREATE TYPE "ForecastRunStatus" AS ENUM ('PENDING', 'RUNNING', 'COMPLETED', 'FAILED');

-- CreateTable
CREATE TABLE "forecast_runs" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "scenarioId" TEXT NOT NULL,
    "status" "ForecastRunStatus" NOT NULL DEFAULT 'PENDING',
    "horizon" INTEGER NOT NULL,
    "levels" DOUBLE PRECISION[],
    "fromWeek" DATE,
    "productMasterId" TEXT,
    "locationId" TEXT,
    "channel" TEXT,
    "assumptions" JSONB,
    "totalSeries" INTEGER NOT NULL,
    "processedSeries" INTEGER NOT NULL DEFAULT 0,
    "totalBatches" INTEGER NOT NULL,
    "processedBatches" INTEGER NOT NULL DEFAULT 0,
    "forecastSum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "totalForecast" DOUBLE PRECISION,
    "failureReason" TEXT,
    "createdByType" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "forecast_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "forecast_run_batches" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "seriesKeys" JSONB NOT NULL,
    "firstSeries" INTEGER NOT NULL,
    "seriesCount" INTEGER NOT NULL,
    "claimToken" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "doneAt" TIMESTAMP(3),

    CONSTRAINT "forecast_run_batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "forecast_run_series" (
    "runId" TEXT NOT NULL,
    "seriesIndex" INTEGER NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "backtestError" DOUBLE PRECISION,
    "errorScale" TEXT NOT NULL,
    "demandClass" TEXT,
    "intervalSource" TEXT NOT NULL,
    "historyWeeks" INTEGER NOT NULL,
    "lastHistoryWeek" DATE NOT NULL,
    "eventIds" TEXT[],
    "adjustments" JSONB,
    "totalForecast" DOUBLE PRECISION NOT NULL,
    "firstWeek" DATE NOT NULL,
    "forecasts" DOUBLE PRECISION[],
    "lowers" DOUBLE PRECISION[],
    "uppers" DOUBLE PRECISION[],
    "lowers95" DOUBLE PRECISION[],
    "uppers95" DOUBLE PRECISION[],
    "intervals" JSONB NOT NULL,
    "liftFactors" DOUBLE PRECISION[],
    "adjustmentFactors" DOUBLE PRECISION[],
    "overridden" BOOLEAN[],
    "modelForecasts" DOUBLE PRECISION[],
    "overrideIds" JSONB NOT NULL,

    CONSTRAINT "forecast_run_series_pkey" PRIMARY KEY ("runId","seriesIndex")
);

-- CreateIndex
CREATE INDEX "forecast_runs_organizationId_scenarioId_createdAt_idx" ON "forecast_runs"("organizationId", "scenarioId", "createdAt");

-- CreateIndex
CREATE INDEX "forecast_runs_scenarioId_status_completedAt_idx" ON "forecast_runs"("scenarioId", "status", "completedAt");

-- CreateIndex
CREATE INDEX "forecast_runs_status_idx" ON "forecast_runs"("status");

-- CreateIndex
CREATE UNIQUE INDEX "forecast_runs_organizationId_id_key" ON "forecast_runs"("organizationId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "forecast_run_batches_runId_index_key" ON "forecast_run_batches"("runId", "index");

-- CreateIndex
CREATE INDEX "forecast_run_series_runId_productMasterId_locationId_channe_idx" ON "forecast_run_series"("runId", "productMasterId", "locationId", "channel");

-- AddForeignKey
ALTER TABLE "forecast_runs" ADD CONSTRAINT "forecast_runs_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "forecast_runs" ADD CONSTRAINT "forecast_runs_organizationId_scenarioId_fkey" FOREIGN KEY ("organizationId", "scenarioId") REFERENCES "forecast_scenarios"("organizationId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "forecast_run_batches" ADD CONSTRAINT "forecast_run_batches_runId_fkey" FOREIGN KEY ("runId") REFERENCES "forecast_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "forecast_run_series" ADD CONSTRAINT "forecast_run_series_runId_fkey" FOREIGN KEY ("runId") REFERENCES "forecast_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Workers look for open batches only: a partial index keeps the claim's scan to them, however many runs are done.
CREATE INDEX "forecast_run_batches_open_idx" ON "forecast_run_batches"("runId", "index") WHERE "doneAt" IS NULL;
