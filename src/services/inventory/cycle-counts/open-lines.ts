import type { TxContext } from '../../../db/transactions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';

/**
 * A count line is open while its correction may still be written: its batch is IN_PROGRESS, or COMPLETED
 * with the line counted and unresolved (a variance waiting in to-resolve). A stock line (product, lot and
 * bin at a location) is in at most one open count line, so it is never corrected twice for one difference.
 * Over `c` (cycle_count_lines) and `b` (its batch).
 */
export const OPEN_LINE = Prisma.sql`(b.status = 'IN_PROGRESS' OR (b.status = 'COMPLETED' AND c.resolution IS NULL AND c."countedQty" IS NOT NULL))`;

/**
 * Serializes the steps that make count lines open at a location (creating a batch, adding a found line)
 * until the transaction ends, so that of two at once the second sees what the first made.
 */
export async function lockCountsAt(ctx: TxContext, locationId: string): Promise<void> {
  await ctx.prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`cycle-count|${orgId(ctx)}|${locationId}`}, 0))`;
}

export interface OpenOverlap {
  productMasterId: string;
  sku: string;
  lotId: string | null;
  lotCode: string | null;
  binId: string | null;
  binCode: string | null;
  batchId: string;
  /** IN_PROGRESS, or COMPLETED with the variance to resolve. */
  status: string;
}

/** The open count lines of the location's batches with the same product, lot and bin as one of `keys` (`k`: productMasterId, lotId, binId). */
export function openOverlaps(ctx: TxContext, locationId: string, keys: Prisma.Sql): Promise<OpenOverlap[]> {
  return ctx.prisma.$queryRaw<OpenOverlap[]>`
    SELECT DISTINCT c."productMasterId", pm.sku, c."lotId", lot.code AS "lotCode", c."binId", bin.code AS "binCode", c."batchId", b.status::text AS status
    FROM (${keys}) k
    JOIN cycle_count_lines c ON c."productMasterId" = k."productMasterId" AND c."lotId" IS NOT DISTINCT FROM k."lotId" AND c."binId" IS NOT DISTINCT FROM k."binId"
    JOIN cycle_count_batches b ON b.id = c."batchId"
    JOIN product_masters pm ON pm.id = c."productMasterId"
    LEFT JOIN lots lot ON lot.id = c."lotId"
    LEFT JOIN bins bin ON bin.id = c."binId"
    WHERE b."organizationId" = ${orgId(ctx)} AND b."locationId" = ${locationId} AND ${OPEN_LINE}
    ORDER BY pm.sku, c."productMasterId", c."batchId"`;
}

/** How a refusal names an open line: "SKU-1 (lot L1, bin A-01) is counted in open batch <id>". */
export function overlapMessage(o: OpenOverlap): string {
  const where = [o.lotCode ? `lot ${o.lotCode}` : null, o.binCode ? `bin ${o.binCode}` : null].filter(Boolean).join(', ');
  const line = `${o.sku} (product ${o.productMasterId}${where ? `, ${where}` : ''})`;
  return o.status === 'IN_PROGRESS' ? `${line} is counted in open batch ${o.batchId}` : `${line} has a variance to resolve in batch ${o.batchId}`;
}
