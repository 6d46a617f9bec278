-- CreateEnum
CREATE TYPE "BookingStatus" AS ENUM ('DRAFT', 'CONFIRMED', 'FULFILLED', 'CANCELLED');

-- AlterTable
ALTER TABLE "external_events" ADD COLUMN     "bookedQuantity" INTEGER,
ADD COLUMN     "bookingLineId" TEXT;

-- CreateTable
CREATE TABLE "bookings" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "customer" TEXT NOT NULL,
    "customerReference" TEXT,
    "locationId" TEXT NOT NULL,
    "week" DATE NOT NULL,
    "status" "BookingStatus" NOT NULL DEFAULT 'DRAFT',
    "note" TEXT,
    "createdByType" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "confirmedAt" TIMESTAMP(3),
    "confirmedBy" TEXT,
    "fulfilledAt" TIMESTAMP(3),
    "fulfilledBy" TEXT,
    "cancelledAt" TIMESTAMP(3),
    "cancelledBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "bookings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "booking_lines" (
    "id" TEXT NOT NULL,
    "bookingId" TEXT NOT NULL,
    "lineNumber" INTEGER NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "reservedQuantity" INTEGER NOT NULL DEFAULT 0,
    "shortQuantity" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "booking_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "booking_allocations" (
    "id" TEXT NOT NULL,
    "lineId" TEXT NOT NULL,
    "stockLineId" TEXT NOT NULL,
    "lotId" TEXT,
    "binId" TEXT,
    "quantity" INTEGER NOT NULL,

    CONSTRAINT "booking_allocations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "bookings_organizationId_status_createdAt_idx" ON "bookings"("organizationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "bookings_organizationId_locationId_status_week_idx" ON "bookings"("organizationId", "locationId", "status", "week");

-- CreateIndex
CREATE UNIQUE INDEX "bookings_organizationId_number_key" ON "bookings"("organizationId", "number");

-- CreateIndex
CREATE INDEX "booking_lines_productMasterId_idx" ON "booking_lines"("productMasterId");

-- CreateIndex
CREATE UNIQUE INDEX "booking_lines_bookingId_lineNumber_key" ON "booking_lines"("bookingId", "lineNumber");

-- CreateIndex
CREATE UNIQUE INDEX "booking_lines_bookingId_productMasterId_key" ON "booking_lines"("bookingId", "productMasterId");

-- CreateIndex
CREATE INDEX "booking_allocations_stockLineId_idx" ON "booking_allocations"("stockLineId");

-- CreateIndex
CREATE UNIQUE INDEX "booking_allocations_lineId_stockLineId_key" ON "booking_allocations"("lineId", "stockLineId");

-- CreateIndex
CREATE UNIQUE INDEX "external_events_bookingLineId_key" ON "external_events"("bookingLineId");

-- AddForeignKey
ALTER TABLE "external_events" ADD CONSTRAINT "external_events_bookingLineId_fkey" FOREIGN KEY ("bookingLineId") REFERENCES "booking_lines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "booking_lines" ADD CONSTRAINT "booking_lines_bookingId_fkey" FOREIGN KEY ("bookingId") REFERENCES "bookings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "booking_allocations" ADD CONSTRAINT "booking_allocations_lineId_fkey" FOREIGN KEY ("lineId") REFERENCES "booking_lines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "booking_allocations" ADD CONSTRAINT "booking_allocations_stockLineId_fkey" FOREIGN KEY ("stockLineId") REFERENCES "stock_lines"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
