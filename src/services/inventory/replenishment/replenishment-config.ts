import type { z } from 'zod';
import type { replenishmentConfigUpdate } from '../../../contracts/inventory/replenishment/replenishment-config.js';
import type { RequestContext } from '../../../context.js';
import type { ReplenishmentConfig, ReplenishmentMethod } from '../../../generated/prisma/client.js';
import { DomainError, notFound } from '../../../kernel/errors.js';
import { actorOf } from '../../actor-of.js';
import { checkFilterIds } from '../../filter-ids.js';
import { isTenantAdmin } from '../../tenant-admin.js';
import { orgId } from '../../tenant.js';

export type ReplenishmentConfigUpdate = z.output<typeof replenishmentConfigUpdate>;

/** A location's configuration as it applies: the stored row, or the defaults (`stored` false, no id, no updatedAt). */
export interface EffectiveReplenishmentConfig {
  id: string | null;
  locationId: string;
  method: ReplenishmentMethod;
  reviewPeriodDays: number;
  safetyStockDays: number;
  defaultSourceLocationId: string | null;
  defaultSupplierId: string | null;
  stored: boolean;
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** What a location that never stored a configuration is replenished with (the columns' defaults). */
export const DEFAULT_REPLENISHMENT_CONFIG = { method: 'MIN_MAX', reviewPeriodDays: 7, safetyStockDays: 0, defaultSourceLocationId: null, defaultSupplierId: null } as const;

const effective = (locationId: string, row: ReplenishmentConfig | null): EffectiveReplenishmentConfig =>
  row
    ? { ...row, stored: true }
    : { id: null, locationId, ...DEFAULT_REPLENISHMENT_CONFIG, stored: false, updatedAt: null, updatedBy: null };

/** The location's configuration, the defaults when none is stored; a location not of the organization: 404. */
export async function replenishmentConfig(ctx: RequestContext, locationId: string): Promise<EffectiveReplenishmentConfig> {
  await checkFilterIds(ctx, { locationId });
  const row = await ctx.prisma.replenishmentConfig.findUnique({ where: { organizationId_locationId: { organizationId: orgId(ctx), locationId } } });
  return effective(locationId, row);
}

/**
 * Stores the fields given (the others keep their value, or the default), for a tenant administrator only:
 * anyone else is refused like a missing permission (403) before anything is read. Setting one default
 * source clears the other. A location, source location or supplier not of the organization: 404.
 */
export async function updateReplenishmentConfig(ctx: RequestContext, input: ReplenishmentConfigUpdate): Promise<ReplenishmentConfig> {
  if (!isTenantAdmin(ctx)) throw new DomainError('FORBIDDEN', 'Only a tenant administrator (an ADMIN user or an API key with the * scope) may change the replenishment configuration');
  const organizationId = orgId(ctx);
  await checkFilterIds(ctx, { locationId: [input.locationId, input.defaultSourceLocationId] });
  if (input.defaultSupplierId && !(await ctx.prisma.supplier.count({ where: { id: input.defaultSupplierId, organizationId } }))) throw notFound('Supplier');
  const { actorType, createdBy } = actorOf(ctx);
  const fields = {
    ...(input.method !== undefined ? { method: input.method } : {}),
    ...(input.reviewPeriodDays !== undefined ? { reviewPeriodDays: input.reviewPeriodDays } : {}),
    ...(input.safetyStockDays !== undefined ? { safetyStockDays: input.safetyStockDays } : {}),
    ...(input.defaultSourceLocationId !== undefined ? { defaultSourceLocationId: input.defaultSourceLocationId } : {}),
    ...(input.defaultSupplierId !== undefined ? { defaultSupplierId: input.defaultSupplierId } : {}),
    ...(input.defaultSourceLocationId ? { defaultSupplierId: null } : {}),
    ...(input.defaultSupplierId ? { defaultSourceLocationId: null } : {}),
    updatedByType: actorType,
    updatedBy: createdBy,
  };
  return ctx.prisma.replenishmentConfig.upsert({
    where: { organizationId_locationId: { organizationId, locationId: input.locationId } },
    create: { organizationId, locationId: input.locationId, ...fields },
    update: fields,
  });
}
