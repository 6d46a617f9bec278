-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "AlertKind" ADD VALUE 'CHANNEL_ATP_CRITICAL';
ALTER TYPE "AlertKind" ADD VALUE 'CYCLE_COUNT_OVERDUE';
ALTER TYPE "AlertKind" ADD VALUE 'RECOMMENDATIONS_WAITING';
ALTER TYPE "AlertKind" ADD VALUE 'FORECAST_ACCURACY_DEGRADED';

-- CYCLE_COUNT_OVERDUE takes 0 days (due today or earlier, as the cycle-count view's overdue).
ALTER TABLE "alert_rules" DROP CONSTRAINT "alert_rules_threshold_check";
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_threshold_check" CHECK ("threshold" IS NULL OR "threshold" BETWEEN 0 AND 8760);
