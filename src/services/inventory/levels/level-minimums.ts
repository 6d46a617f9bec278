import { uuidv7s } from '../../../db/ids.js';
import { orgId } from '../../tenant.js';
import type { TxContext } from '../../../db/transactions.js';

export interface LevelMinimum {
  productMasterId: string;
  locationId: string;
  minQuantity: number;
}

/**
 * Sets the minimum of each (product, location) level in one statement, in the transaction `tx`: a
 * missing level is created with reorder and maximum equal to the minimum, an existing one keeps them
 * unless they are lower, when they are raised to it (min <= reorder <= max holds). One pair at most once
 * per call. Callers must have checked that the products and locations belong to the organization.
 */
export async function setLevelMinimums(ctx: TxContext, levels: LevelMinimum[]): Promise<void> {
  const tx = ctx.prisma;
  if (!levels.length) return;
  await tx.$executeRaw`
    INSERT INTO inventory_levels (id, "organizationId", "productMasterId", "locationId", "minQuantity", "reorderQuantity", "maxQuantity", "updatedAt")
    SELECT u.id, ${orgId(ctx)}, u.product, u.location, u.minimum, u.minimum, u.minimum, now()
    FROM unnest(${uuidv7s(levels.length)}::text[], ${levels.map((l) => l.productMasterId)}::text[], ${levels.map((l) => l.locationId)}::text[],
                ${levels.map((l) => l.minQuantity)}::int[])
      AS u(id, product, location, minimum)
    ON CONFLICT ("productMasterId", "locationId") DO UPDATE SET
      "minQuantity" = EXCLUDED."minQuantity",
      "reorderQuantity" = GREATEST(inventory_levels."reorderQuantity", EXCLUDED."minQuantity"),
      "maxQuantity" = GREATEST(inventory_levels."maxQuantity", EXCLUDED."minQuantity"),
      "updatedAt" = now()`;
}
