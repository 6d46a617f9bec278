-- AlterTable
ALTER TABLE "shipment_lines" ADD COLUMN     "transferLineId" TEXT,
ALTER COLUMN "orderLineId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "shipments" ADD COLUMN     "transferId" TEXT,
ALTER COLUMN "salesOrderId" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "shipment_lines_transferLineId_idx" ON "shipment_lines"("transferLineId");

-- CreateIndex
CREATE INDEX "shipments_transferId_idx" ON "shipments"("transferId");

-- AddForeignKey
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_transferId_fkey" FOREIGN KEY ("transferId") REFERENCES "inventory_transfers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipment_lines" ADD CONSTRAINT "shipment_lines_transferLineId_fkey" FOREIGN KEY ("transferLineId") REFERENCES "inventory_transfer_lines"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Hand-written below.

-- A shipment ships exactly one document: a sales order or an inventory transfer.
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_one_document_check" CHECK (("salesOrderId" IS NULL) <> ("transferId" IS NULL));

-- A transfer ships whole, once: at most one of its shipments is not CANCELLED (the transfer's row lock orders
-- concurrent creations; this holds it whatever the code does).
CREATE UNIQUE INDEX "shipments_transfer_open_key" ON "shipments"("transferId") WHERE "status" <> 'CANCELLED';
