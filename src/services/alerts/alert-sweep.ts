import type { OperatorContext } from '../../context.js';
import { inTransaction, type InTransaction } from '../../db/transactions.js';
import type { AlertKind, AlertSeverity } from '../../generated/prisma/client.js';
import { startOfTodayUtc } from '../inventory/stock-lines/quantities.js';
import { type AlertCandidate, raiseAlerts, resolveAlerts } from './alert-writes.js';
import { cycleCountsOverdue, recommendationsWaiting } from './swept-queues.js';

type Tx = InTransaction<OperatorContext>;

/** The kinds only time changes (a request waits, a lot's expiry comes closer), evaluated by the sweep. */
const SWEPT_KINDS: AlertKind[] = ['STOCK_REQUESTS_WAITING', 'LOTS_EXPIRING', 'RECOMMENDATIONS_WAITING', 'CYCLE_COUNT_OVERDUE'];

/**
 * One sweep of the time rules over every organization: each kind's condition is found with one query over the
 * enabled rules and their data, the keys found raised (or seen again), and the open alerts of enabled rules of
 * the kind that were not found resolved. One sweep at a time across instances (a transaction-scoped advisory
 * lock; an instance that does not get it skips this round). Returns whether it ran.
 */
export async function sweepAlerts(ctx: OperatorContext): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const [lock] = await tx.prisma.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext('alerts-sweep')) AS locked`;
    if (!lock?.locked) return false;
    const found = [...(await stockRequestsWaiting(tx)), ...(await lotsExpiring(tx)), ...(await recommendationsWaiting(tx)), ...(await cycleCountsOverdue(tx))];
    const seen = new Set(found.map((c) => `${c.ruleId}\u0000${c.dedupKey}`));
    const open = await tx.prisma.$queryRaw<{ ruleId: string; dedupKey: string }[]>`
      SELECT a."ruleId", a."dedupKey" FROM alerts a JOIN alert_rules r ON r.id = a."ruleId"
      WHERE a.status <> 'RESOLVED' AND r.enabled AND a.kind::text = ANY(${SWEPT_KINDS}::text[])`;
    await resolveAlerts(tx, open.filter((a) => !seen.has(`${a.ruleId}\u0000${a.dedupKey}`)));
    await raiseAlerts(tx, found);
    return true;
  });
}

interface WaitingRow {
  ruleId: string;
  organizationId: string;
  severity: AlertSeverity;
  threshold: number;
  requestId: string;
  number: number;
  supplyingLocationId: string;
  submittedAt: Date;
}

/** STOCK_REQUESTS_WAITING: requests SUBMITTED (waiting for approval) longer than the rule's hours, at a location the rule covers (either end). */
async function stockRequestsWaiting(ctx: Tx): Promise<AlertCandidate[]> {
  const rows = await ctx.prisma.$queryRaw<WaitingRow[]>`
    SELECT r.id AS "ruleId", r."organizationId", r.severity::text AS severity, r.threshold, sr.id AS "requestId", sr.number, sr."supplyingLocationId", sr."submittedAt"
    FROM alert_rules r
    JOIN stock_requests sr ON sr."organizationId" = r."organizationId" AND sr.status = 'SUBMITTED'
      AND sr."submittedAt" < now() - make_interval(hours => r.threshold)
      AND (r."locationId" IS NULL OR r."locationId" IN (sr."supplyingLocationId", sr."requestingLocationId"))
    WHERE r.kind = 'STOCK_REQUESTS_WAITING' AND r.enabled`;
  return rows.map((row) => {
    const hours = Math.floor((Date.now() - new Date(row.submittedAt).getTime()) / 3_600_000);
    return {
      organizationId: row.organizationId,
      ruleId: row.ruleId,
      kind: 'STOCK_REQUESTS_WAITING',
      severity: row.severity,
      dedupKey: row.requestId,
      productId: null,
      locationId: row.supplyingLocationId,
      subjectType: 'STOCK_REQUEST',
      subjectId: row.requestId,
      message: `Stock request ${row.number} has waited ${hours} hours for approval (rule: ${row.threshold})`,
      details: { waitingHours: hours, thresholdHours: row.threshold, submittedAt: new Date(row.submittedAt).toISOString() },
    };
  });
}

interface ExpiringRow {
  ruleId: string;
  organizationId: string;
  severity: AlertSeverity;
  threshold: number;
  lotId: string;
  lotCode: string;
  expiryDate: Date;
  productId: string;
  sku: string;
  locationId: string;
  locationCode: string;
  quantity: bigint;
}

/**
 * LOTS_EXPIRING: lots (not recalled) whose expiry date is within the rule's days from today (or past), with
 * units on hand not yet counted as expired, per location the rule covers. Resolved when those units are gone.
 */
async function lotsExpiring(ctx: Tx): Promise<AlertCandidate[]> {
  const today = startOfTodayUtc().toISOString().slice(0, 10);
  const rows = await ctx.prisma.$queryRaw<ExpiringRow[]>`
    SELECT r.id AS "ruleId", r."organizationId", r.severity::text AS severity, r.threshold, lo.id AS "lotId", lo.code AS "lotCode", lo."expiryDate",
      s."productMasterId" AS "productId", p.sku, s."locationId", loc.code AS "locationCode", SUM(s."qtyOnHand" - s."qtyExpired")::bigint AS quantity
    FROM alert_rules r
    JOIN lots lo ON lo."organizationId" = r."organizationId" AND NOT lo.recalled AND lo."expiryDate" IS NOT NULL AND lo."expiryDate" <= ${today}::date + r.threshold
    JOIN stock_lines s ON s."lotId" = lo.id
    JOIN product_masters p ON p.id = s."productMasterId"
    JOIN locations loc ON loc.id = s."locationId"
    WHERE r.kind = 'LOTS_EXPIRING' AND r.enabled
      AND (r."locationId" IS NULL OR r."locationId" = s."locationId")
      AND (r."productId" IS NULL OR r."productId" = s."productMasterId")
      AND (r."categoryId" IS NULL OR r."categoryId" = p."categoryId")
    GROUP BY r.id, lo.id, s."productMasterId", p.sku, s."locationId", loc.code
    HAVING SUM(s."qtyOnHand" - s."qtyExpired") > 0`;
  return rows.map((row) => {
    const expiry = new Date(row.expiryDate).toISOString().slice(0, 10);
    const days = Math.round((Date.parse(expiry) - Date.parse(today)) / 86_400_000);
    return {
      organizationId: row.organizationId,
      ruleId: row.ruleId,
      kind: 'LOTS_EXPIRING',
      severity: row.severity,
      dedupKey: `${row.lotId}:${row.locationId}`,
      productId: row.productId,
      locationId: row.locationId,
      subjectType: 'LOT',
      subjectId: row.lotId,
      message: `${Number(row.quantity)} units of ${row.sku} lot ${row.lotCode} at ${row.locationCode} expire ${days < 0 ? `${-days} days ago` : `in ${days} days`} (${expiry}; rule: ${row.threshold} days)`,
      details: { quantity: Number(row.quantity), expiryDate: expiry, daysLeft: days, thresholdDays: row.threshold },
    };
  });
}
