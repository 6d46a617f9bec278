import { checkFilterIds } from '../../filter-ids.js';
import type { z } from 'zod';
import type { inventoryLevelUpdate as updateSchema, inventoryLevelUpsert as upsertSchema } from '../../../contracts/inventory/levels/inventory-level.js';
import type { RequestContext } from '../../../context.js';
import { notFound, validationError, type FieldErrors } from '../../../kernel/errors.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';

/** Prisma query fragment from a Pothos resolver (select or include); empty for plain service calls. */
type Query = { select?: object; include?: object };

export const INVALID_QUANTITIES = 'Invalid quantities: min <= reorder <= max required';

/** The inputs as their contracts output them (parsed once, where they come in). */
export type UpsertInventoryLevelInput = z.output<typeof upsertSchema>;
export type UpdateInventoryLevelInput = z.output<typeof updateSchema>;
type Settable = UpdateInventoryLevelInput;

export interface InventoryLevelFilter {
  locationId?: string | null;
  productMasterId?: string | null;
}

interface Quantities {
  minQuantity: number;
  reorderQuantity: number;
  maxQuantity: number;
}

const invalidQuantities = (details: FieldErrors) => validationError(details, INVALID_QUANTITIES);

/** The invariant min <= reorder <= max on the values the row will have after the write. */
function checkOrder(q: Quantities) {
  const details: FieldErrors = {};
  if (q.reorderQuantity < q.minQuantity) details.reorderQuantity = [`Must be at least minQuantity (${q.minQuantity})`];
  if (q.maxQuantity < q.reorderQuantity) details.maxQuantity = [`Must be at least reorderQuantity (${q.reorderQuantity})`];
  if (Object.keys(details).length) throw invalidQuantities(details);
}

function merged(existing: Quantities | null, input: Settable): Quantities {
  return {
    minQuantity: input.minQuantity ?? existing?.minQuantity ?? 0,
    reorderQuantity: input.reorderQuantity ?? existing?.reorderQuantity ?? 0,
    maxQuantity: input.maxQuantity ?? existing?.maxQuantity ?? 0,
  };
}

/** Did the database refuse the write because of a CHECK constraint (SQLSTATE 23514)? */
export function isCheckViolation(error: unknown): boolean {
  for (let e: any = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (e.code === '23514' || e.originalCode === '23514' || e.meta?.driverAdapterError?.cause?.originalCode === '23514') return true;
    if (typeof e.message === 'string' && /violates check constraint "inventory_levels_order_check"/.test(e.message)) return true;
  }
  return false;
}

// Two concurrent writes may each pass checkOrder yet together break the invariant; the database CHECK
// refuses the later one, which must answer like any other invalid quantities.
function mapCheckViolation(error: unknown): never {
  if (isCheckViolation(error)) {
    throw invalidQuantities({ quantities: ['The level changed meanwhile and min <= reorder <= max would no longer hold; read it and retry'] });
  }
  throw error;
}

const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/** Bin and replenishment location must belong to the organization (the bin to the level's location). */
async function checkReferences(ctx: RequestContext, locationId: string, input: Settable) {
  const organizationId = orgId(ctx);
  const [bin, replenishment] = await Promise.all([
    input.preferredBinLocationId ? ctx.prisma.bin.count({ where: { id: input.preferredBinLocationId, organizationId, locationId } }) : 1,
    input.replenishmentLocationId ? ctx.prisma.location.count({ where: { id: input.replenishmentLocationId, organizationId } }) : 1,
  ]);
  const details: FieldErrors = {};
  if (!bin) details.preferredBinLocationId = ['Bin not found at this location'];
  if (!replenishment) details.replenishmentLocationId = ['Location not found'];
  if (Object.keys(details).length) throw validationError(details);
}

/** Creates the level of a product at a location, or updates the one that exists (absent fields stay as they are). */
export async function upsertInventoryLevel(ctx: RequestContext, input: UpsertInventoryLevelInput, query: Query = {}) {
  const { productMasterId: given, productId, locationId, ...fields } = input;
  const productMasterId = (given ?? productId)!;
  const organizationId = orgId(ctx);
  const [product, location] = await Promise.all([
    ctx.prisma.productMaster.count({ where: { id: productMasterId, organizationId } }),
    ctx.prisma.location.count({ where: { id: locationId, organizationId } }),
  ]);
  if (!product) throw notFound('Product');
  if (!location) throw notFound('Location');
  await checkReferences(ctx, locationId, fields);

  const where = { productMasterId_locationId: { productMasterId, locationId } };
  // A concurrent first POST for the same product and location may insert between our read and our
  // insert; the unique index refuses ours, and the second attempt updates the row that won.
  for (let attempt = 1; ; attempt++) {
    const existing = await ctx.prisma.inventoryLevel.findUnique({ where, select: { minQuantity: true, reorderQuantity: true, maxQuantity: true } });
    checkOrder(merged(existing, fields));
    try {
      return await ctx.prisma.inventoryLevel.upsert({
        ...query,
        where,
        create: { ...fields, organizationId, productMasterId, locationId },
        update: fields,
      });
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      mapCheckViolation(error);
    }
  }
}

export async function getInventoryLevel(ctx: RequestContext, id: string, query: Query = {}) {
  const level = await ctx.prisma.inventoryLevel.findFirst({ ...query, where: { id, organizationId: orgId(ctx) } });
  if (!level) throw notFound('Inventory level');
  return level;
}

/** Changes a level; absent fields stay as they are and the invariant is checked on the merged values. */
export async function updateInventoryLevel(ctx: RequestContext, id: string, fields: UpdateInventoryLevelInput, query: Query = {}) {
  const organizationId = orgId(ctx);
  const existing = await getInventoryLevel(ctx, id, { select: { locationId: true, minQuantity: true, reorderQuantity: true, maxQuantity: true } });
  checkOrder(merged(existing, fields));
  await checkReferences(ctx, existing.locationId, fields);
  // Prisma answers an update with nothing to set with count 0 without asking the database, which
  // would read as "not found": an empty change is a read of the level that exists.
  if (!Object.values(fields).some((value) => value !== undefined)) return getInventoryLevel(ctx, id, query);
  const { count } = await ctx.prisma.inventoryLevel.updateMany({ where: { id, organizationId }, data: fields }).catch(mapCheckViolation);
  if (!count) throw notFound('Inventory level');
  return getInventoryLevel(ctx, id, query);
}

export async function deleteInventoryLevel(ctx: RequestContext, id: string) {
  const { count } = await ctx.prisma.inventoryLevel.deleteMany({ where: { id, organizationId: orgId(ctx) } });
  if (!count) throw notFound('Inventory level');
  return { success: true, message: 'Inventory level deleted' };
}

/** Levels of the organization, optionally of one location and/or one product (each must be the organization's). */
export async function listInventoryLevels(ctx: RequestContext, filter: InventoryLevelFilter, query: Query = {}) {
  await checkFilterIds(ctx, { locationId: filter.locationId, productMasterId: filter.productMasterId });
  return ctx.prisma.inventoryLevel.findMany({
    ...query,
    where: levelWhere(ctx, filter),
    orderBy: { id: 'asc' },
  });
}

/** The count of the same levels; a filter id that is not the organization's is the same 404 as the list's, even when only the count is asked. */
export async function countInventoryLevels(ctx: RequestContext, filter: InventoryLevelFilter) {
  await checkFilterIds(ctx, { locationId: filter.locationId, productMasterId: filter.productMasterId });
  return ctx.prisma.inventoryLevel.count({ where: levelWhere(ctx, filter) });
}

function levelWhere(ctx: RequestContext, filter: InventoryLevelFilter) {
  return { organizationId: orgId(ctx), locationId: filter.locationId ?? undefined, productMasterId: filter.productMasterId ?? undefined };
}

/** The levels of one product at every location; 404 when the product is not the organization's. */
export async function productInventoryLevels(ctx: RequestContext, productId: string, query: Query = {}) {
  const organizationId = orgId(ctx);
  const product = await ctx.prisma.productMaster.count({ where: { id: productId, organizationId } });
  if (!product) throw notFound('Product');
  return ctx.prisma.inventoryLevel.findMany({ ...query, where: { organizationId, productMasterId: productId }, orderBy: { id: 'asc' } });
}
