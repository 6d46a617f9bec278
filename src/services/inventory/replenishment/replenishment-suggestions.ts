// Replenishment suggestions: the planning recommendations of a location, run with its replenishment configuration
// (method, review period, safety stock, default source), which a request may override for one run. Nothing is
// written: records are made from the ORDER and MOVE suggestions by POST /api/inventory/replenishment (action create).
import type { z } from 'zod';
import type { replenishmentSuggestionsInput } from '../../../contracts/inventory/replenishment/replenishment-suggestions.js';
import type { RequestContext } from '../../../context.js';
import { type PlanningRecommendation, recommendForLocation, type ReplenishmentMethod } from '../../planning/recommendations/recommend-for-location.js';
import { replenishmentConfig } from './replenishment-config.js';

export type ReplenishmentSuggestionsInput = z.output<typeof replenishmentSuggestionsInput>;

export interface ReplenishmentSuggestions {
  locationId: string;
  method: ReplenishmentMethod;
  /** null: each level's replenishment period (no configuration stored, none asked). */
  reviewPeriodDays: number | null;
  safetyStockDays: number;
  supplierId: string | null;
  sourceLocationId: string | null;
  configStored: boolean;
  suggestions: PlanningRecommendation[];
}

export async function replenishmentSuggestions(ctx: RequestContext, input: ReplenishmentSuggestionsInput): Promise<ReplenishmentSuggestions> {
  const config = await replenishmentConfig(ctx, input.locationId);
  const method = input.method ?? config.method;
  // The defaults of a location that stored nothing leave each level's own replenishment period in force.
  const reviewPeriodDays = input.reviewPeriodDays ?? (config.stored ? config.reviewPeriodDays : null);
  const safetyStockDays = input.safetyStockDays ?? config.safetyStockDays;
  const asked = input.supplierId || input.sourceLocationId;
  const supplierId = asked ? (input.supplierId ?? null) : config.defaultSupplierId;
  const sourceLocationId = asked ? (input.sourceLocationId ?? null) : config.defaultSourceLocationId;
  const suggestions = await recommendForLocation(ctx, {
    locationId: input.locationId,
    productMasterIds: input.productMasterIds ?? null,
    method,
    reviewPeriodDays: reviewPeriodDays ?? undefined,
    safetyStockDays,
    defaultSource: supplierId ? { supplierId } : sourceLocationId ? { locationId: sourceLocationId } : null,
  });
  return { locationId: input.locationId, method, reviewPeriodDays, safetyStockDays, supplierId, sourceLocationId, configStored: config.stored, suggestions };
}
