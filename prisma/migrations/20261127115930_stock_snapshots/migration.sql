-- CreateTable
CREATE TABLE "stock_snapshots" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "takenAt" TIMESTAMP(3) NOT NULL,
    "lineCount" INTEGER NOT NULL,
    "ledgerRows" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stock_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stock_line_snapshots" (
    "snapshotId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "stockLineId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "qtyOnHand" INTEGER NOT NULL,
    "qtyReserved" INTEGER NOT NULL,
    "qtyOnHold" INTEGER NOT NULL,
    "qtyPicked" INTEGER NOT NULL,
    "qtyRecalled" INTEGER NOT NULL,
    "qtyExpired" INTEGER NOT NULL,

    CONSTRAINT "stock_line_snapshots_pkey" PRIMARY KEY ("snapshotId","stockLineId")
);

-- CreateIndex
CREATE UNIQUE INDEX "stock_snapshots_organizationId_takenAt_key" ON "stock_snapshots"("organizationId", "takenAt");

-- CreateIndex
CREATE INDEX "stock_line_snapshots_snapshotId_locationId_idx" ON "stock_line_snapshots"("snapshotId", "locationId");

-- AddForeignKey
ALTER TABLE "stock_snapshots" ADD CONSTRAINT "stock_snapshots_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_line_snapshots" ADD CONSTRAINT "stock_line_snapshots_snapshotId_fkey" FOREIGN KEY ("snapshotId") REFERENCES "stock_snapshots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_line_snapshots" ADD CONSTRAINT "stock_line_snapshots_stockLineId_fkey" FOREIGN KEY ("stockLineId") REFERENCES "stock_lines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Stock in transit to a location as of a moment is read from the TRANSFER_OUT and TRANSFER_IN ledger rows of the
-- transfers heading there (sourceType TRANSFER, sourceId the transfer). A partial index keeps that lookup to the
-- transfer rows among every ledger row (written by hand: the schema cannot declare one).
CREATE INDEX "stock_transactions_transfer_source_idx" ON "stock_transactions"("organizationId", "sourceId") WHERE "sourceType" = 'TRANSFER';
