// The sweep's kinds that count work waiting at a location: transfer recommendations not acted on, products not
// counted. Each is one query over every organization's enabled rules of the kind, one alert per rule and location
// (a tenant may hold thousands of either; one alert per row would bury the rest).
import type { OperatorContext } from '../../context.js';
import type { InTransaction } from '../../db/transactions.js';
import type { AlertSeverity } from '../../generated/prisma/client.js';
import { startOfTodayUtc } from '../inventory/stock-lines/quantities.js';
import type { AlertCandidate } from './alert-writes.js';

type Tx = InTransaction<OperatorContext>;

interface RuleRow {
  ruleId: string;
  organizationId: string;
  severity: AlertSeverity;
  threshold: number;
  locationId: string;
  locationCode: string;
}

interface WaitingRecommendations extends RuleRow {
  waiting: number;
  urgent: number;
  oldestId: string;
  oldestAt: Date;
}

/**
 * RECOMMENDATIONS_WAITING: PENDING transfer recommendations (not expired) proposed longer than the rule's hours ago
 * and neither approved nor rejected, within the rule's scope (a location at either end, a product, a category); one
 * alert per rule and destination location, whose cause is the oldest of them. Resolved by the sweep that finds none.
 */
export async function recommendationsWaiting(ctx: Tx): Promise<AlertCandidate[]> {
  const rows = await ctx.prisma.$queryRaw<WaitingRecommendations[]>`
    SELECT r.id AS "ruleId", r."organizationId", r.severity::text AS severity, r.threshold, tr."destLocationId" AS "locationId", loc.code AS "locationCode",
      COUNT(*)::int AS waiting, (COUNT(*) FILTER (WHERE tr.priority = 'URGENT'))::int AS urgent,
      (array_agg(tr.id ORDER BY tr."createdAt", tr.id))[1] AS "oldestId", MIN(tr."createdAt") AS "oldestAt"
    FROM alert_rules r
    JOIN transfer_recommendations tr ON tr."organizationId" = r."organizationId" AND tr.status = 'PENDING' AND tr."expiresAt" > now()
      AND tr."createdAt" < now() - make_interval(hours => r.threshold)
      AND (r."locationId" IS NULL OR r."locationId" IN (tr."sourceLocationId", tr."destLocationId"))
      AND (r."productId" IS NULL OR r."productId" = tr."productMasterId")
    LEFT JOIN product_masters p ON r."categoryId" IS NOT NULL AND p.id = tr."productMasterId"
    JOIN locations loc ON loc.id = tr."destLocationId"
    WHERE r.kind = 'RECOMMENDATIONS_WAITING' AND r.enabled AND (r."categoryId" IS NULL OR p."categoryId" = r."categoryId")
    GROUP BY r.id, tr."destLocationId", loc.code`;
  return rows.map((row) => {
    const hours = Math.floor((Date.now() - new Date(row.oldestAt).getTime()) / 3_600_000);
    return {
      organizationId: row.organizationId,
      ruleId: row.ruleId,
      kind: 'RECOMMENDATIONS_WAITING',
      severity: row.severity,
      dedupKey: row.locationId,
      productId: null,
      locationId: row.locationId,
      subjectType: 'TRANSFER_RECOMMENDATION',
      subjectId: row.oldestId,
      message: `${row.waiting} transfer recommendation${row.waiting === 1 ? '' : 's'} into ${row.locationCode} ${row.waiting === 1 ? 'has' : 'have'} waited more than ${row.threshold} hours for a decision (oldest ${hours} hours)`,
      details: { waiting: row.waiting, urgent: row.urgent, oldestWaitingHours: hours, thresholdHours: row.threshold, oldestCreatedAt: new Date(row.oldestAt).toISOString() },
    };
  });
}

interface OverdueCounts extends RuleRow {
  overdue: number;
  neverCounted: number;
  oldestDueDate: Date | null;
  firstProductId: string;
}

/**
 * CYCLE_COUNT_OVERDUE: products whose next cycle count date (the schedule's, by ABC class and last count) is the
 * rule's days or more ago (0: today or earlier, the cycle-count view's overdue), and products never counted, at a
 * location within the rule's scope; one alert per rule and location. Resolved by the sweep that finds none.
 */
export async function cycleCountsOverdue(ctx: Tx): Promise<AlertCandidate[]> {
  const today = startOfTodayUtc().toISOString().slice(0, 10);
  const rows = await ctx.prisma.$queryRaw<OverdueCounts[]>`
    SELECT r.id AS "ruleId", r."organizationId", r.severity::text AS severity, r.threshold, cs."locationId", loc.code AS "locationCode",
      COUNT(*)::int AS overdue, (COUNT(*) FILTER (WHERE cs."dueDate" IS NULL))::int AS "neverCounted", MIN(cs."dueDate") AS "oldestDueDate",
      MIN(cs."productMasterId") AS "firstProductId"
    FROM alert_rules r
    JOIN cycle_count_schedule cs ON cs."organizationId" = r."organizationId" AND (cs."dueDate" IS NULL OR cs."dueDate" <= ${today}::date - r.threshold)
      AND (r."locationId" IS NULL OR r."locationId" = cs."locationId")
      AND (r."productId" IS NULL OR r."productId" = cs."productMasterId")
    LEFT JOIN product_masters p ON r."categoryId" IS NOT NULL AND p.id = cs."productMasterId"
    JOIN locations loc ON loc.id = cs."locationId"
    WHERE r.kind = 'CYCLE_COUNT_OVERDUE' AND r.enabled AND (r."categoryId" IS NULL OR p."categoryId" = r."categoryId")
    GROUP BY r.id, cs."locationId", loc.code`;
  return rows.map((row) => {
    const oldest = row.oldestDueDate ? new Date(row.oldestDueDate).toISOString().slice(0, 10) : null;
    const daysLate = oldest ? Math.round((Date.parse(today) - Date.parse(oldest)) / 86_400_000) : null;
    return {
      organizationId: row.organizationId,
      ruleId: row.ruleId,
      kind: 'CYCLE_COUNT_OVERDUE',
      severity: row.severity,
      dedupKey: row.locationId,
      productId: row.overdue === 1 ? row.firstProductId : null,
      locationId: row.locationId,
      subjectType: 'LOCATION',
      subjectId: row.locationId,
      message: `${row.overdue} product${row.overdue === 1 ? '' : 's'} at ${row.locationCode} ${row.overdue === 1 ? 'is' : 'are'} overdue for a cycle count (${row.neverCounted} never counted${oldest ? `, the oldest due ${oldest}` : ''}; rule: ${row.threshold} days)`,
      details: { overdueProducts: row.overdue, neverCounted: row.neverCounted, oldestDueDate: oldest, daysLate, thresholdDays: row.threshold },
    };
  });
}
