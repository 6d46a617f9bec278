import type { DbContext } from '../../context.js';
import type { InTransaction } from '../../db/transactions.js';
import type { AlertRule } from '../../generated/prisma/client.js';
import type { PublishedEvent } from '../events/publisher/published-event.js';
import { startOfTodayUtc } from '../inventory/stock-lines/quantities.js';
import type { AlertCandidate, AlertKey } from './alert-writes.js';
import { ruleCovers } from './rule-scope.js';

interface Measured {
  organizationId: string;
  productId: string;
  locationId: string;
  categoryId: string | null;
  sku: string;
  locationCode: string;
  minQuantity: number | null;
  available: bigint;
}

/**
 * AVAILABLE_BELOW_MIN for the (organization, product, location) keys a batch of stock.changed events touched:
 * one query measures every key (available: on hand less reserved, on hold, picked, recalled and expired units,
 * nothing of a recalled or expired lot; against the inventory level's minimum), then each enabled rule of the
 * key's organization that covers it either raises (available < minimum) or resolves (otherwise, also when
 * the key has no level or a minimum of 0).
 */
export async function availableBelowMin(ctx: InTransaction<DbContext>, events: PublishedEvent[], rules: AlertRule[]): Promise<{ raise: AlertCandidate[]; clear: AlertKey[] }> {
  const raise: AlertCandidate[] = [];
  const clear: AlertKey[] = [];
  const ruled = new Set(rules.map((rule) => rule.organizationId));
  // The last event of a key names the stock line that changed last: the alert's cause.
  const keys = new Map<string, { organizationId: string; productId: string; locationId: string; stockLineId: string }>();
  for (const event of events) {
    if (!ruled.has(event.organizationId) || !event.productId || !event.locationId) continue;
    keys.set(`${event.organizationId}:${event.productId}:${event.locationId}`, { organizationId: event.organizationId, productId: event.productId, locationId: event.locationId, stockLineId: String(event.subjectId) });
  }
  if (!keys.size) return { raise, clear };
  const list = [...keys.values()];
  const today = startOfTodayUtc().toISOString().slice(0, 10);
  const measured = await ctx.prisma.$queryRaw<Measured[]>`
    SELECT k.o AS "organizationId", k.p AS "productId", k.l AS "locationId", p."categoryId", p.sku, loc.code AS "locationCode", il."minQuantity",
      COALESCE(SUM(CASE WHEN s."lotId" IS NOT NULL AND (lo.recalled OR lo."expiryDate" < ${today}::date) THEN 0
        ELSE GREATEST(0, s."qtyOnHand" - s."qtyReserved" - s."qtyOnHold" - s."qtyPicked" - s."qtyRecalled" - s."qtyExpired") END), 0)::bigint AS available
    FROM unnest(${list.map((k) => k.organizationId)}::text[], ${list.map((k) => k.productId)}::text[], ${list.map((k) => k.locationId)}::text[]) AS k(o, p, l)
    JOIN product_masters p ON p.id = k.p AND p."organizationId" = k.o
    JOIN locations loc ON loc.id = k.l AND loc."organizationId" = k.o
    LEFT JOIN inventory_levels il ON il."productMasterId" = k.p AND il."locationId" = k.l
    LEFT JOIN stock_lines s ON s."productMasterId" = k.p AND s."locationId" = k.l
    LEFT JOIN lots lo ON lo.id = s."lotId"
    GROUP BY k.o, k.p, k.l, p."categoryId", p.sku, loc.code, il."minQuantity"`;
  for (const row of measured) {
    const key = keys.get(`${row.organizationId}:${row.productId}:${row.locationId}`)!;
    const dedupKey = `${row.productId}:${row.locationId}`;
    const available = Number(row.available);
    const below = row.minQuantity !== null && row.minQuantity > 0 && available < row.minQuantity;
    for (const rule of rules) {
      if (rule.organizationId !== row.organizationId || !ruleCovers(rule, row)) continue;
      if (!below) {
        clear.push({ ruleId: rule.id, dedupKey });
        continue;
      }
      raise.push({
        organizationId: row.organizationId,
        ruleId: rule.id,
        kind: 'AVAILABLE_BELOW_MIN',
        severity: rule.severity,
        dedupKey,
        productId: row.productId,
        locationId: row.locationId,
        subjectType: 'STOCK_LINE',
        subjectId: key.stockLineId,
        message: `Available ${available} of ${row.sku} at ${row.locationCode} is below the minimum ${row.minQuantity}`,
        details: { available, minQuantity: row.minQuantity },
      });
    }
  }
  return { raise, clear };
}
