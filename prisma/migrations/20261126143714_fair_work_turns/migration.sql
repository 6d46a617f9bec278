-- AlterTable
ALTER TABLE "forecast_runs" ADD COLUMN     "failedAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lastClaimAt" TIMESTAMP(3),
ADD COLUMN     "retryAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "import_jobs" ADD COLUMN     "lastChunkAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "forecast_runs_organizationId_lastClaimAt_idx" ON "forecast_runs"("organizationId", "lastClaimAt");

-- CreateIndex
CREATE INDEX "import_jobs_organizationId_lastChunkAt_idx" ON "import_jobs"("organizationId", "lastChunkAt");
