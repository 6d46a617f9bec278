import type { Prisma } from '../../../generated/prisma/client.js';

/**
 * Where a counted line stands in the to-resolve queue: the absolute value of its variance at the unit cost it was
 * counted at (units where the product has no cost); null when the count matches what was expected.
 */
export function varianceRank(countedQty: number, expectedQty: number, unitCost: Prisma.Decimal | null): number | null {
  const units = countedQty - expectedQty;
  if (units === 0) return null;
  return Math.abs(unitCost === null ? units : unitCost.times(units).toNumber());
}
