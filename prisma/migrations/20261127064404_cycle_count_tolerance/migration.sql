-- AlterTable
ALTER TABLE "cycle_count_settings" ADD COLUMN     "tolerancePercent" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "toleranceUnits" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "toleranceValue" DOUBLE PRECISION NOT NULL DEFAULT 0;
