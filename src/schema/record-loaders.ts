import DataLoader from 'dataloader';
import type { RequestContext } from '../context.js';
import { notFound } from '../kernel/errors.js';
import { categoriesByIds, channelsByIds, locationsByIds, productsByIds } from '../services/master-data/records-by-id.js';
import { allocationPoliciesByIds, binsByIds, lotsByIds, stockLinesByIds } from '../services/inventory/records-by-id.js';
import { externalEventsByIds, forecastOverridesByIds, forecastRunsByIds, forecastScenariosByIds } from '../services/forecasting/records-by-id.js';
import { inventoryTransfersByIds } from '../services/transfers/records-by-id.js';
import { recommendationsByIds } from '../services/transfers/recommendations/recommendation-feed.js';
import { purchaseOrdersByIds, suppliersByIds } from '../services/supply/records-by-id.js';
import { alertRulesByIds } from '../services/alerts/alert-rules.js';

type Loaders = ReturnType<typeof makeLoaders>;

/** The kinds of record a link field can load (each a per-request DataLoader). */
export type LinkedRecord = keyof Loaders;

// One set per request (the context object lives as long as the request), so ids asked for by every
// item of a page are read in one statement, and nothing is cached past the request.
const perRequest = new WeakMap<object, Loaders>();

function byId<T extends { id: string }>(load: (ids: readonly string[]) => Promise<T[]>) {
  return new DataLoader<string, T | null>(async (ids) => {
    const rows = new Map((await load(ids)).map((row) => [row.id, row]));
    return ids.map((id) => rows.get(id) ?? null);
  });
}

function makeLoaders(ctx: RequestContext) {
  return {
    product: byId((ids) => productsByIds(ctx, ids)),
    location: byId((ids) => locationsByIds(ctx, ids)),
    channel: byId((ids) => channelsByIds(ctx, ids)),
    category: byId((ids) => categoriesByIds(ctx, ids)),
    bin: byId((ids) => binsByIds(ctx, ids)),
    lot: byId((ids) => lotsByIds(ctx, ids)),
    stockLine: byId((ids) => stockLinesByIds(ctx, ids)),
    allocationPolicy: byId((ids) => allocationPoliciesByIds(ctx, ids)),
    forecastScenario: byId((ids) => forecastScenariosByIds(ctx, ids)),
    forecastRun: byId((ids) => forecastRunsByIds(ctx, ids)),
    forecastOverride: byId((ids) => forecastOverridesByIds(ctx, ids)),
    externalEvent: byId((ids) => externalEventsByIds(ctx, ids)),
    inventoryTransfer: byId((ids) => inventoryTransfersByIds(ctx, ids)),
    transferRecommendation: byId((ids) => recommendationsByIds(ctx, [...ids])),
    supplier: byId((ids) => suppliersByIds(ctx, ids)),
    purchaseOrder: byId((ids) => purchaseOrdersByIds(ctx, ids)),
    alertRule: byId((ids) => alertRulesByIds(ctx, ids)),
  };
}

export function loadersOf(ctx: RequestContext): Loaders {
  let loaders = perRequest.get(ctx);
  if (!loaders) perRequest.set(ctx, (loaders = makeLoaders(ctx)));
  return loaders;
}

type Loaded<K extends LinkedRecord> = Loaders[K] extends DataLoader<string, infer T> ? T : never;

/**
 * The caller's record of this kind and id, batched with the other ids the same request asks for;
 * null when there is none (no id, deleted, or another organization's).
 */
export function linked<K extends LinkedRecord>(ctx: RequestContext, kind: K, id: string | null | undefined): Promise<Loaded<K>> | null {
  return id ? (loadersOf(ctx)[kind] as unknown as DataLoader<string, Loaded<K>>).load(id) : null;
}

/** The caller's product of this id; null when there is none (no id, deleted, or another organization's). */
export const productOf = (ctx: RequestContext, id: string | null | undefined) => linked(ctx, 'product', id);

/** The caller's location of this id; null when there is none (no id, deleted, or another organization's). */
export const locationOf = (ctx: RequestContext, id: string | null | undefined) => linked(ctx, 'location', id);

/** The caller's product of an id a stored row holds with a foreign key (NOT_FOUND only if that were broken). */
export const ownProduct = async (ctx: RequestContext, id: string) => (await loadersOf(ctx).product.load(id)) ?? Promise.reject(notFound('Product'));

/** The caller's location of an id a stored row holds with a foreign key (NOT_FOUND only if that were broken). */
export const ownLocation = async (ctx: RequestContext, id: string) => (await loadersOf(ctx).location.load(id)) ?? Promise.reject(notFound('Location'));

/** The caller's record of an id a stored row holds with a foreign key, batched (NOT_FOUND only if that were broken). */
export const ownRecord = async <K extends LinkedRecord>(ctx: RequestContext, kind: K, id: string, type: string) =>
  (await linked(ctx, kind, id)) ?? Promise.reject(notFound(type));
