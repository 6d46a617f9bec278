import type { OperatorContext } from '../../context.js';
import { inTransaction } from '../../db/transactions.js';
import type { AlertKind, AlertRule } from '../../generated/prisma/client.js';
import { positionOf, readEventHeadsAfter, readEventsAfter, type PublishedEvent } from '../events/publisher/published-event.js';
import { type AlertCandidate, type AlertKey, raiseAlerts, resolveAlerts } from './alert-writes.js';
import { availableBelowMin } from './available-below-min.js';
import { channelAtpCritical } from './channel-atp-critical.js';
import { forecastAccuracyDegraded } from './forecast-accuracy-degraded.js';
import { measureStockKeys } from './measure-stock-keys.js';

/** The alerts evaluator's row in event_publisher_cursors (the publisher's is `main`, the webhooks worker's `webhooks`). */
export const ALERTS_CURSOR = 'alerts';

/** The kinds events drive (the others are the sweep's). */
const EVENT_KINDS: AlertKind[] = ['AVAILABLE_BELOW_MIN', 'CHANNEL_ATP_CRITICAL', 'IMPORT_FAILED', 'STOCK_REQUESTS_WAITING', 'FORECAST_ACCURACY_DEGRADED'];
const RELEVANT_TYPES = new Set(['stock.changed', 'import.failed', 'stock_request.moved', 'forecast_run.finished']);
const ofKind = (rules: AlertRule[], kind: AlertKind) => rules.filter((rule) => rule.kind === kind);

/**
 * Evaluates the next settled outbox events against the enabled rules of their organizations and moves the
 * alerts cursor past them, in one transaction: alerts raised, seen again or resolved, their alert.* events and
 * the cursor move commit together, so a process killed before the commit changed nothing and the batch is
 * evaluated again. The cursor row is locked with SKIP LOCKED: one instance evaluates at a time. Set-based: a
 * batch of up to 500 events costs a handful of statements whatever its size. Returns the events read.
 */
export async function evaluateAlertEvents(ctx: OperatorContext): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const [cursor] = await tx.prisma.$queryRaw<{ txid: bigint; lastId: bigint }[]>`
      SELECT txid, "lastId" FROM event_publisher_cursors WHERE name = ${ALERTS_CURSOR} FOR UPDATE SKIP LOCKED`;
    if (!cursor) return 0;
    const from = { txid: cursor.txid, id: cursor.lastId };
    // Heads first: most batches are of organizations without a rule, and their payloads need not be read.
    const heads = await readEventHeadsAfter(tx.prisma, from);
    if (!heads.length) return 0;
    const isRelevant = (e: { type: string }) => RELEVANT_TYPES.has(e.type);
    const organizations = [...new Set(heads.filter(isRelevant).map((e) => e.organizationId))];
    if (organizations.length) {
      const rules = await tx.prisma.alertRule.findMany({ where: { organizationId: { in: organizations }, enabled: true, kind: { in: EVENT_KINDS } } });
      if (rules.length) {
        const ruled = new Set(rules.map((r) => r.organizationId));
        const relevant = (await readEventsAfter(tx.prisma, from, positionOf(heads.at(-1)!))).filter((e) => isRelevant(e) && ruled.has(e.organizationId));
        // One measure of the batch's stock keys serves both stock kinds.
        const stockRules = [...ofKind(rules, 'AVAILABLE_BELOW_MIN'), ...ofKind(rules, 'CHANNEL_ATP_CRITICAL')];
        const measured = await measureStockKeys(tx, relevant, new Set(stockRules.map((rule) => rule.organizationId)));
        const stock = availableBelowMin(measured, ofKind(rules, 'AVAILABLE_BELOW_MIN'));
        const atp = await channelAtpCritical(tx, measured, ofKind(rules, 'CHANNEL_ATP_CRITICAL'));
        const accuracy = await forecastAccuracyDegraded(tx, relevant, ofKind(rules, 'FORECAST_ACCURACY_DEGRADED'));
        const raise = [...stock.raise, ...atp.raise, ...accuracy.raise, ...importFailed(relevant, ofKind(rules, 'IMPORT_FAILED'))];
        const clear = [...stock.clear, ...atp.clear, ...accuracy.clear, ...stockRequestsMoved(relevant, ofKind(rules, 'STOCK_REQUESTS_WAITING'))];
        await resolveAlerts(tx, clear);
        await raiseAlerts(tx, raise);
      }
    }
    const to = positionOf(heads.at(-1)!);
    await tx.prisma.$executeRaw`
      UPDATE event_publisher_cursors SET txid = ${to.txid}, "lastId" = ${to.id}, "updatedAt" = now() WHERE name = ${ALERTS_CURSOR}`;
    return heads.length;
  });
}

/** IMPORT_FAILED: one alert per failed import job and rule (a failed job stays failed: only a user resolves it). */
function importFailed(events: PublishedEvent[], rules: AlertRule[]): AlertCandidate[] {
  return events
    .filter((e) => e.type === 'import.failed')
    .flatMap((event) => {
      const p = event.payload as { importId: string; kind: string; failureReason: string | null; totalRows: number; processedRows: number; rejectedRows: number };
      return rules
        .filter((rule) => rule.organizationId === event.organizationId)
        .map((rule) => ({
          organizationId: event.organizationId,
          ruleId: rule.id,
          kind: 'IMPORT_FAILED' as const,
          severity: rule.severity,
          dedupKey: p.importId,
          productId: null,
          locationId: null,
          subjectType: 'IMPORT_JOB',
          subjectId: p.importId,
          message: `The ${p.kind} import failed: ${(p.failureReason ?? 'no reason given').slice(0, 500)}`,
          details: { importKind: p.kind, failureReason: p.failureReason, totalRows: p.totalRows, processedRows: p.processedRows, rejectedRows: p.rejectedRows },
        }));
    });
}

/** STOCK_REQUESTS_WAITING is raised by the sweep; a request that moves on from SUBMITTED resolves its alerts at once. */
function stockRequestsMoved(events: PublishedEvent[], rules: AlertRule[]): AlertKey[] {
  return events
    .filter((e) => e.type === 'stock_request.moved' && e.payload.to !== 'SUBMITTED')
    .flatMap((event) => rules.filter((rule) => rule.organizationId === event.organizationId).map((rule) => ({ ruleId: rule.id, dedupKey: String(event.payload.requestId) })));
}
