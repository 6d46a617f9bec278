-- AlterTable
ALTER TABLE "inventory_levels" ADD COLUMN     "lastCountedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "cycle_count_settings" (
    "organizationId" TEXT NOT NULL,
    "aPercent" INTEGER NOT NULL DEFAULT 80,
    "bPercent" INTEGER NOT NULL DEFAULT 15,
    "cPercent" INTEGER NOT NULL DEFAULT 5,
    "aFrequencyDays" INTEGER NOT NULL DEFAULT 30,
    "bFrequencyDays" INTEGER NOT NULL DEFAULT 90,
    "cFrequencyDays" INTEGER NOT NULL DEFAULT 180,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "cycle_count_settings_pkey" PRIMARY KEY ("organizationId")
);

-- AddForeignKey
ALTER TABLE "cycle_count_settings" ADD CONSTRAINT "cycle_count_settings_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
