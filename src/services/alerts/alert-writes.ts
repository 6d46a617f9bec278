// The evaluator's and the sweep's writes: set-based, for any organization (the condition was found by a query
// over every organization's rules), each with its alert.* events in the same transaction.
import type { DbContext } from '../../context.js';
import { uuidv7s } from '../../db/ids.js';
import type { InTransaction } from '../../db/transactions.js';
import type { Alert, AlertKind, AlertSeverity, AlertStatus } from '../../generated/prisma/client.js';
import { appendEventsOf, type NewEvent } from '../events/outbox/append-events.js';
import { alertEvent } from './alert-events.js';

type Tx = InTransaction<DbContext>;

/** A rule's condition found true for one key. */
export interface AlertCandidate {
  organizationId: string;
  ruleId: string;
  kind: AlertKind;
  severity: AlertSeverity;
  dedupKey: string;
  productId: string | null;
  locationId: string | null;
  subjectType: string;
  subjectId: string;
  message: string;
  details: Record<string, unknown>;
}

/** An open alert's identity: its rule and key. */
export interface AlertKey {
  ruleId: string;
  dedupKey: string;
}

/**
 * Raises the candidates: a new OPEN alert (and its alert.raised event) for a (rule, key) with no open alert,
 * otherwise the open one seen again (lastSeenAt, the latest cause, message and measure; occurrences + 1 only when
 * the measure differs: the evaluator measures the current state, so an event read after a later change of the same
 * key measures what that change left, and must not count it twice). The
 * partial unique index decides which, so two writers at once still leave one open alert. Returns the new ones.
 */
export async function raiseAlerts(ctx: Tx, candidates: AlertCandidate[]): Promise<Alert[]> {
  // One statement may not touch a row twice: the last candidate of a (rule, key) wins.
  const unique = [...new Map(candidates.map((c) => [`${c.ruleId}\u0000${c.dedupKey}`, c])).values()];
  if (!unique.length) return [];
  const ids = uuidv7s(unique.length);
  const rows = JSON.stringify(unique.map((c, i) => ({ ...c, id: ids[i] })));
  const written = await ctx.prisma.$queryRaw<(Alert & { inserted: boolean })[]>`
    INSERT INTO alerts (id, "organizationId", "ruleId", kind, severity, "dedupKey", "productId", "locationId", "subjectType", "subjectId", message, details, "updatedAt")
    SELECT r.id, r."organizationId", r."ruleId", r.kind::"AlertKind", r.severity::"AlertSeverity", r."dedupKey", r."productId", r."locationId", r."subjectType", r."subjectId", r.message, r.details, now()
    FROM jsonb_to_recordset(${rows}::jsonb) AS r(id text, "organizationId" text, "ruleId" text, kind text, severity text, "dedupKey" text, "productId" text, "locationId" text,
      "subjectType" text, "subjectId" text, message text, details jsonb)
    ON CONFLICT ("ruleId", "dedupKey") WHERE status <> 'RESOLVED'
    DO UPDATE SET "lastSeenAt" = now(), occurrences = alerts.occurrences + CASE WHEN alerts.details IS DISTINCT FROM EXCLUDED.details THEN 1 ELSE 0 END, "subjectType" = EXCLUDED."subjectType", "subjectId" = EXCLUDED."subjectId",
      message = EXCLUDED.message, details = EXCLUDED.details, "updatedAt" = now()
    RETURNING alerts.*, (xmax = 0) AS inserted`;
  const raised = written.filter((row) => row.inserted);
  await appendByOrganization(ctx, raised.map((alert) => [alert.organizationId, alertEvent('alert.raised', alert, null)]));
  return raised;
}

/** Resolves (by SYSTEM: the condition cleared) the open alerts of these (rule, key) pairs, with their alert.resolved events. */
export async function resolveAlerts(ctx: Tx, keys: AlertKey[]): Promise<Alert[]> {
  if (!keys.length) return [];
  const resolved = await ctx.prisma.$queryRaw<(Alert & { fromStatus: AlertStatus })[]>`
    WITH open AS (
      SELECT a.id, a.status FROM alerts a
      JOIN unnest(${keys.map((k) => k.ruleId)}::text[], ${keys.map((k) => k.dedupKey)}::text[]) AS k("ruleId", "dedupKey")
        ON a."ruleId" = k."ruleId" AND a."dedupKey" = k."dedupKey"
      WHERE a.status <> 'RESOLVED'
      FOR UPDATE OF a
    )
    UPDATE alerts SET status = 'RESOLVED', "resolvedAt" = now(), "resolvedByType" = 'SYSTEM', "resolvedBy" = NULL, "updatedAt" = now()
    FROM open WHERE alerts.id = open.id
    RETURNING alerts.*, open.status::text AS "fromStatus"`;
  await appendByOrganization(ctx, resolved.map((alert) => [alert.organizationId, alertEvent('alert.resolved', alert, alert.fromStatus)]));
  return resolved;
}

async function appendByOrganization(ctx: Tx, events: [string, NewEvent][]) {
  const byOrganization = new Map<string, NewEvent[]>();
  for (const [organizationId, event] of events) byOrganization.set(organizationId, [...(byOrganization.get(organizationId) ?? []), event]);
  for (const [organizationId, list] of byOrganization) await appendEventsOf(ctx, organizationId, list);
}
