-- CreateEnum
CREATE TYPE "CycleCountBatchStatus" AS ENUM ('IN_PROGRESS', 'COMPLETED', 'CANCELLED');

-- CreateTable
CREATE TABLE "cycle_count_batches" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "status" "CycleCountBatchStatus" NOT NULL DEFAULT 'IN_PROGRESS',
    "assigneeId" TEXT,
    "createdBy" TEXT NOT NULL,
    "snapshotSeq" BIGINT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),
    "cancelledAt" TIMESTAMP(3),

    CONSTRAINT "cycle_count_batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cycle_count_lines" (
    "id" TEXT NOT NULL,
    "batchId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "lotId" TEXT,
    "binId" TEXT,
    "stockLineId" TEXT,
    "snapshotQty" INTEGER NOT NULL,
    "snapshotSeq" BIGINT NOT NULL,
    "found" BOOLEAN NOT NULL DEFAULT false,
    "countedQty" INTEGER,
    "expectedQty" INTEGER,
    "countedSeq" BIGINT,
    "countedAt" TIMESTAMP(3),
    "countedBy" TEXT,
    "history" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "cycle_count_lines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "cycle_count_batches_organizationId_status_createdAt_idx" ON "cycle_count_batches"("organizationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "cycle_count_lines_batchId_idx" ON "cycle_count_lines"("batchId");

-- CreateIndex
CREATE UNIQUE INDEX "cycle_count_lines_batchId_productMasterId_lotId_binId_key" ON "cycle_count_lines"("batchId", "productMasterId", "lotId", "binId");

-- AddForeignKey
ALTER TABLE "cycle_count_batches" ADD CONSTRAINT "cycle_count_batches_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cycle_count_lines" ADD CONSTRAINT "cycle_count_lines_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "cycle_count_batches"("id") ON DELETE CASCADE ON UPDATE CASCADE;
