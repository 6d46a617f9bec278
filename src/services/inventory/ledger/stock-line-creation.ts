import type { StockLine } from '../../../generated/prisma/client.js';
import { uuidv7s } from '../../../db/ids.js';
import { orgId } from '../../tenant.js';
import type { TxContext } from '../../../db/transactions.js';

export interface LineKey {
  productMasterId: string;
  locationId: string;
  lotId?: string | null;
  binId?: string | null;
}

export const lineKeyOf = (key: LineKey) => `${key.lotId ?? '-'}:${key.binId ?? '-'}`;

/**
 * Creates the empty stock lines of these keys that do not exist yet, in the order given, with one
 * INSERT ... ON CONFLICT DO NOTHING: two transactions creating the same line both end up with the one
 * row, and callers that pass keys in a fixed order cannot deadlock on them. Callers must have checked
 * that products, locations, lots and bins belong to the caller's organization.
 */
export async function createStockLines(ctx: TxContext, keys: LineKey[]): Promise<void> {
  if (!keys.length) return;
  await ctx.prisma.$executeRaw`
    INSERT INTO stock_lines (id, "organizationId", "productMasterId", "locationId", "lotId", "binId", "lineKey", "updatedAt")
    SELECT u.id, ${orgId(ctx)}, u.product, u.location, u.lot, u.bin, u.line_key, now()
    FROM unnest(${uuidv7s(keys.length)}::text[], ${keys.map((k) => k.productMasterId)}::text[], ${keys.map((k) => k.locationId)}::text[],
                ${keys.map((k) => k.lotId ?? null)}::text[], ${keys.map((k) => k.binId ?? null)}::text[], ${keys.map(lineKeyOf)}::text[])
      WITH ORDINALITY AS u(id, product, location, lot, bin, line_key, n)
    ORDER BY u.n
    ON CONFLICT ("productMasterId", "locationId", "lineKey") DO NOTHING`;
}

/** The stock line for product, location, lot and bin, created empty when missing (see createStockLines). */
export async function findOrCreateStockLine(ctx: TxContext, key: LineKey): Promise<StockLine> {
  await createStockLines(ctx, [key]);
  return ctx.prisma.stockLine.findUniqueOrThrow({ where: { productMasterId_locationId_lineKey: { productMasterId: key.productMasterId, locationId: key.locationId, lineKey: lineKeyOf(key) } } });
}
