-- CreateEnum
CREATE TYPE "ShipmentStatus" AS ENUM ('RESERVED', 'PICKED', 'PACKED', 'SHIPPED', 'DELIVERED', 'CANCELLED');

-- CreateTable
CREATE TABLE "shipments" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "salesOrderId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "status" "ShipmentStatus" NOT NULL DEFAULT 'RESERVED',
    "carrier" TEXT,
    "trackingNumber" TEXT,
    "packageCount" INTEGER,
    "weightKg" DOUBLE PRECISION,
    "note" TEXT,
    "createdByType" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "pickedAt" TIMESTAMP(3),
    "packedAt" TIMESTAMP(3),
    "shippedAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "cancelledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "shipments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shipment_lines" (
    "id" TEXT NOT NULL,
    "shipmentId" TEXT NOT NULL,
    "lineNumber" INTEGER NOT NULL,
    "orderLineId" TEXT NOT NULL,
    "productMasterId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,

    CONSTRAINT "shipment_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shipment_allocations" (
    "id" TEXT NOT NULL,
    "lineId" TEXT NOT NULL,
    "stockLineId" TEXT NOT NULL,
    "lotId" TEXT,
    "binId" TEXT,
    "quantity" INTEGER NOT NULL,

    CONSTRAINT "shipment_allocations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "shipments_organizationId_status_createdAt_idx" ON "shipments"("organizationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "shipments_organizationId_locationId_createdAt_idx" ON "shipments"("organizationId", "locationId", "createdAt");

-- CreateIndex
CREATE INDEX "shipments_salesOrderId_idx" ON "shipments"("salesOrderId");

-- CreateIndex
CREATE UNIQUE INDEX "shipments_organizationId_number_key" ON "shipments"("organizationId", "number");

-- CreateIndex
CREATE INDEX "shipment_lines_orderLineId_idx" ON "shipment_lines"("orderLineId");

-- CreateIndex
CREATE UNIQUE INDEX "shipment_lines_shipmentId_lineNumber_key" ON "shipment_lines"("shipmentId", "lineNumber");

-- CreateIndex
CREATE INDEX "shipment_allocations_stockLineId_idx" ON "shipment_allocations"("stockLineId");

-- CreateIndex
CREATE UNIQUE INDEX "shipment_allocations_lineId_stockLineId_key" ON "shipment_allocations"("lineId", "stockLineId");

-- AddForeignKey
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_salesOrderId_fkey" FOREIGN KEY ("salesOrderId") REFERENCES "sales_orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipment_lines" ADD CONSTRAINT "shipment_lines_shipmentId_fkey" FOREIGN KEY ("shipmentId") REFERENCES "shipments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipment_lines" ADD CONSTRAINT "shipment_lines_orderLineId_fkey" FOREIGN KEY ("orderLineId") REFERENCES "sales_order_lines"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipment_allocations" ADD CONSTRAINT "shipment_allocations_lineId_fkey" FOREIGN KEY ("lineId") REFERENCES "shipment_lines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipment_allocations" ADD CONSTRAINT "shipment_allocations_stockLineId_fkey" FOREIGN KEY ("stockLineId") REFERENCES "stock_lines"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
