import type { DbContext } from '../../context.js';
import type { InTransaction } from '../../db/transactions.js';
import type { PublishedEvent } from '../events/publisher/published-event.js';
import { startOfTodayUtc } from '../inventory/stock-lines/quantities.js';

/** A product at a location a batch of stock.changed events touched, measured once for every stock kind. */
export interface MeasuredStock {
  organizationId: string;
  productId: string;
  locationId: string;
  categoryId: string | null;
  sku: string;
  locationCode: string;
  minQuantity: number | null;
  available: number;
  /** The stock line that changed last in the batch: the alert's cause. */
  stockLineId: string;
}

/**
 * The (organization, product, location) keys of the batch's stock.changed events of the given organizations,
 * measured with one query: available (on hand less reserved, on hold, picked, recalled and expired units, nothing of
 * a recalled or expired lot, as the quantity rule and channel ATP count it) and the inventory level's minimum.
 */
export async function measureStockKeys(ctx: InTransaction<DbContext>, events: PublishedEvent[], organizations: Set<string>): Promise<MeasuredStock[]> {
  const keys = new Map<string, { organizationId: string; productId: string; locationId: string; stockLineId: string }>();
  for (const event of events) {
    if (event.type !== 'stock.changed' || !organizations.has(event.organizationId) || !event.productId || !event.locationId) continue;
    keys.set(`${event.organizationId}:${event.productId}:${event.locationId}`, { organizationId: event.organizationId, productId: event.productId, locationId: event.locationId, stockLineId: String(event.subjectId) });
  }
  if (!keys.size) return [];
  const list = [...keys.values()];
  const today = startOfTodayUtc().toISOString().slice(0, 10);
  const measured = await ctx.prisma.$queryRaw<(Omit<MeasuredStock, 'available' | 'stockLineId'> & { available: bigint })[]>`
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
  return measured.map((row) => ({
    ...row,
    available: Number(row.available),
    stockLineId: keys.get(`${row.organizationId}:${row.productId}:${row.locationId}`)!.stockLineId,
  }));
}
