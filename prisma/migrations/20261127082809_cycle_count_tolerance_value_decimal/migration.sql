-- AlterTable
ALTER TABLE "cycle_count_settings" ALTER COLUMN "toleranceValue" SET DATA TYPE DECIMAL(14,4);
