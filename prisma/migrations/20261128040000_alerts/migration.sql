-- CreateEnum
CREATE TYPE "AlertKind" AS ENUM ('AVAILABLE_BELOW_MIN', 'IMPORT_FAILED', 'STOCK_REQUESTS_WAITING', 'LOTS_EXPIRING');

-- CreateEnum
CREATE TYPE "AlertSeverity" AS ENUM ('INFO', 'WARNING', 'CRITICAL');

-- CreateEnum
CREATE TYPE "AlertStatus" AS ENUM ('OPEN', 'ACKNOWLEDGED', 'RESOLVED');

-- CreateTable
CREATE TABLE "alert_rules" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "kind" "AlertKind" NOT NULL,
    "threshold" INTEGER,
    "locationId" TEXT,
    "productId" TEXT,
    "categoryId" TEXT,
    "severity" "AlertSeverity" NOT NULL DEFAULT 'WARNING',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alerts" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "kind" "AlertKind" NOT NULL,
    "severity" "AlertSeverity" NOT NULL,
    "status" "AlertStatus" NOT NULL DEFAULT 'OPEN',
    "dedupKey" TEXT NOT NULL,
    "productId" TEXT,
    "locationId" TEXT,
    "subjectType" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "details" JSONB NOT NULL,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "occurrences" INTEGER NOT NULL DEFAULT 1,
    "acknowledgedAt" TIMESTAMP(3),
    "acknowledgedByType" TEXT,
    "acknowledgedBy" TEXT,
    "resolvedAt" TIMESTAMP(3),
    "resolvedByType" TEXT,
    "resolvedBy" TEXT,
    "resolutionNote" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alerts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "alert_rules_organizationId_kind_idx" ON "alert_rules"("organizationId", "kind");

-- CreateIndex
CREATE INDEX "alerts_organizationId_id_idx" ON "alerts"("organizationId", "id");

-- CreateIndex
CREATE INDEX "alerts_organizationId_status_id_idx" ON "alerts"("organizationId", "status", "id");

-- CreateIndex
CREATE INDEX "alerts_ruleId_status_idx" ON "alerts"("ruleId", "status");

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- De-duplication: at most one open (OPEN or ACKNOWLEDGED) alert per rule and key, whoever writes it.
CREATE UNIQUE INDEX "alerts_open_per_rule_and_key" ON "alerts" ("ruleId", "dedupKey") WHERE "status" <> 'RESOLVED';

-- Bounds the services also check, kept by the database too.
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_threshold_check" CHECK ("threshold" IS NULL OR "threshold" BETWEEN 1 AND 8760);
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_occurrences_check" CHECK ("occurrences" >= 1);

-- The alerts evaluator's cursor starts after the events already written: no rule existed to match them.
INSERT INTO "event_publisher_cursors" ("name", "txid", "lastId")
SELECT 'alerts', COALESCE(MAX(txid), 0), COALESCE(MAX(id), 0) FROM "domain_events";
