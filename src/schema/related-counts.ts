import DataLoader from 'dataloader';
import type { RequestContext } from '../context.js';

// The totalCount of a relation's connection (a product's stock, a category's products), for every parent a request
// shows at once: one grouped statement per relation and filter, batched like the record loaders and kept no longer
// than the request.
const perRequest = new WeakMap<object, Map<string, DataLoader<string, number>>>();

/** The number of related rows of this parent; `kind` names the relation and its filter (one loader each). */
export function relatedCount(
  ctx: RequestContext,
  kind: string,
  parentId: string,
  count: (parentIds: readonly string[]) => Promise<Map<string, number>>,
): Promise<number> {
  let loaders = perRequest.get(ctx);
  if (!loaders) perRequest.set(ctx, (loaders = new Map()));
  let loader = loaders.get(kind);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const counts = await count(ids);
      return ids.map((id) => counts.get(id) ?? 0);
    });
    loaders.set(kind, loader);
  }
  return loader.load(parentId);
}

/**
 * The resolver of a relation connection's own `totalCount` field, counted by `relatedCount`: the Prisma plugin hands a
 * connection's fields the parent row and the connection's arguments; `kind` names the loader for those arguments.
 */
export function relatedTotalCount<Args>(
  kind: (args: Args) => string,
  count: (ctx: RequestContext, parentIds: readonly string[], args: Args) => Promise<Map<string, number>>,
) {
  return (connection: unknown, _args: unknown, ctx: RequestContext): Promise<number> => {
    const { parent, args } = connection as { parent: { id: string }; args: Args };
    return relatedCount(ctx, kind(args), parent.id, (ids) => count(ctx, ids, args));
  };
}
