import DataLoader from 'dataloader';
import type { RequestContext } from '../context.js';

// What a field reads about its parent (a count, a page of related rows), for every parent a request shows at
// once: one `load` per kind of read (the relation with its filter and window), batched like the record loaders.
// Batched, not cached: a subscription keeps its context for every event, and each event must read anew (an import
// job's error count grows between two checkpoints).
const perRequest = new WeakMap<object, Map<string, DataLoader<string, unknown>>>();

/** This parent's value of `kind`, loaded with those of every parent asking in the same tick; `otherwise` for a parent `load` leaves out. */
export function relatedBy<V>(ctx: RequestContext, kind: string, parentId: string, load: (parentIds: readonly string[]) => Promise<Map<string, V>>, otherwise: V): Promise<V> {
  let loaders = perRequest.get(ctx);
  if (!loaders) perRequest.set(ctx, (loaders = new Map()));
  let loader = loaders.get(kind);
  if (!loader) {
    loader = new DataLoader(
      async (ids: readonly string[]) => {
        const values = await load([...new Set(ids)]);
        return ids.map((id) => (values.has(id) ? values.get(id) : otherwise));
      },
      { cache: false },
    );
    loaders.set(kind, loader);
  }
  return loader.load(parentId) as Promise<V>;
}
