import DataLoader from 'dataloader';
import type { RequestContext } from '../context.js';
import { notFound } from '../kernel/errors.js';
import { locationsByIds, productsByIds } from '../services/master-data/records-by-id.js';

type Loaders = ReturnType<typeof makeLoaders>;

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
  };
}

export function loadersOf(ctx: RequestContext): Loaders {
  let loaders = perRequest.get(ctx);
  if (!loaders) perRequest.set(ctx, (loaders = makeLoaders(ctx)));
  return loaders;
}

/** The caller's product of this id; null when there is none (no id, deleted, or another organization's). */
export const productOf = (ctx: RequestContext, id: string | null | undefined) => (id ? loadersOf(ctx).product.load(id) : null);

/** The caller's location of this id; null when there is none (no id, deleted, or another organization's). */
export const locationOf = (ctx: RequestContext, id: string | null | undefined) => (id ? loadersOf(ctx).location.load(id) : null);

/** The caller's product of an id a stored row holds with a foreign key (NOT_FOUND only if that were broken). */
export const ownProduct = async (ctx: RequestContext, id: string) => (await loadersOf(ctx).product.load(id)) ?? Promise.reject(notFound('Product'));

/** The caller's location of an id a stored row holds with a foreign key (NOT_FOUND only if that were broken). */
export const ownLocation = async (ctx: RequestContext, id: string) => (await loadersOf(ctx).location.load(id)) ?? Promise.reject(notFound('Location'));
