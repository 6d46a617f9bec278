-- AlterTable
ALTER TABLE "cycle_count_lines" ADD COLUMN     "correctionQty" INTEGER,
ADD COLUMN     "resolution" TEXT,
ADD COLUMN     "resolvedAt" TIMESTAMP(3),
ADD COLUMN     "resolvedBy" TEXT;
