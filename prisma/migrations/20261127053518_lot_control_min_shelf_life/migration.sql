-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "minShelfLifeDays" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "product_masters" ADD COLUMN     "minShelfLifeDays" INTEGER;
