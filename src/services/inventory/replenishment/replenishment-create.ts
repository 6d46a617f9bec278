import type { z } from 'zod';
import type { replenishmentCreate, replenishmentMove } from '../../../contracts/inventory/replenishment/replenishment-records.js';
import type { RequestContext } from '../../../context.js';
import type { ReplenishmentRecord } from '../../../generated/prisma/client.js';
import { notFound } from '../../../kernel/errors.js';
import { dateOnly } from '../../../kernel/iso-dates.js';
import { actorOf } from '../../actor-of.js';
import { checkFilterIds } from '../../filter-ids.js';
import { orgId } from '../../tenant.js';

/** The inputs as their contracts output them (parsed once, where they come in). */
export type ReplenishmentCreateInput = z.output<typeof replenishmentCreate>;
export type ReplenishmentMoveInput = z.output<typeof replenishmentMove>;

const uniq = (values: (string | null | undefined)[]) => [...new Set(values.filter((v): v is string => Boolean(v)))];

/**
 * Records suggestion items as PROPOSED replenishment records, all or none, in the order given. A product,
 * location, source location or supplier that is not the organization's: 404 naming what, nothing created.
 */
export async function createReplenishments(ctx: RequestContext, input: ReplenishmentCreateInput): Promise<ReplenishmentRecord[]> {
  const { items } = input;
  const organizationId = orgId(ctx);
  await checkFilterIds(ctx, { productMasterId: items.map((i) => i.productMasterId), locationId: items.flatMap((i) => [i.locationId, i.sourceLocationId]) });
  const suppliers = uniq(items.map((i) => i.supplierId));
  if (suppliers.length && (await ctx.prisma.supplier.count({ where: { organizationId, id: { in: suppliers } } })) < suppliers.length) throw notFound('Supplier');
  const { actorType, createdBy } = actorOf(ctx);
  // One statement: all items or none.
  return ctx.prisma.replenishmentRecord.createManyAndReturn({
      data: items.map((item) => ({
        organizationId,
        productMasterId: item.productMasterId,
        locationId: item.locationId,
        quantity: item.quantity,
        sourceType: item.sourceType,
        supplierId: item.supplierId ?? null,
        sourceLocationId: item.sourceLocationId ?? null,
        needBy: dateOnly(item.needBy),
        reason: item.reason ?? null,
        createdByType: actorType,
        createdBy,
      })),
  });
}
