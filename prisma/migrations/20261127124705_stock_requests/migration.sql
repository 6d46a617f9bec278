-- CreateEnum
CREATE TYPE "StockRequestStatus" AS ENUM ('DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "StockRequestPriority" AS ENUM ('LOW', 'NORMAL', 'HIGH', 'URGENT');

-- CreateEnum
CREATE TYPE "StockRequestEventKind" AS ENUM ('CREATED', 'STATUS', 'ROLLBACK', 'COMMENT', 'LINES');

-- CreateTable
CREATE TABLE "stock_requests" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "requestingLocationId" TEXT NOT NULL,
    "supplyingLocationId" TEXT NOT NULL,
    "neededBy" DATE NOT NULL,
    "priority" "StockRequestPriority" NOT NULL DEFAULT 'NORMAL',
    "reason" TEXT,
    "status" "StockRequestStatus" NOT NULL DEFAULT 'DRAFT',
    "requesterType" TEXT NOT NULL,
    "requesterId" TEXT NOT NULL,
    "submittedAt" TIMESTAMP(3),
    "approvedAt" TIMESTAMP(3),
    "approvedBy" TEXT,
    "rejectedAt" TIMESTAMP(3),
    "rejectedBy" TEXT,
    "rejectionReason" TEXT,
    "cancelledAt" TIMESTAMP(3),
    "cancelledBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "stock_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stock_request_lines" (
    "id" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "quantityRequested" INTEGER NOT NULL,
    "quantityApproved" INTEGER,
    "quantityFulfilled" INTEGER NOT NULL DEFAULT 0,
    "unit" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "stock_request_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stock_request_events" (
    "id" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "kind" "StockRequestEventKind" NOT NULL,
    "fromStatus" "StockRequestStatus",
    "toStatus" "StockRequestStatus",
    "note" TEXT,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stock_request_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "stock_requests_organizationId_status_createdAt_idx" ON "stock_requests"("organizationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "stock_requests_organizationId_requestingLocationId_createdA_idx" ON "stock_requests"("organizationId", "requestingLocationId", "createdAt");

-- CreateIndex
CREATE INDEX "stock_requests_organizationId_supplyingLocationId_createdAt_idx" ON "stock_requests"("organizationId", "supplyingLocationId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "stock_requests_organizationId_number_key" ON "stock_requests"("organizationId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "stock_request_lines_requestId_productMasterId_key" ON "stock_request_lines"("requestId", "productMasterId");

-- CreateIndex
CREATE INDEX "stock_request_events_requestId_createdAt_idx" ON "stock_request_events"("requestId", "createdAt");

-- AddForeignKey
ALTER TABLE "stock_requests" ADD CONSTRAINT "stock_requests_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_request_lines" ADD CONSTRAINT "stock_request_lines_requestId_fkey" FOREIGN KEY ("requestId") REFERENCES "stock_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stock_request_events" ADD CONSTRAINT "stock_request_events_requestId_fkey" FOREIGN KEY ("requestId") REFERENCES "stock_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;
