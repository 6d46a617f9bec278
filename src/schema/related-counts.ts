import type { RequestContext } from '../context.js';
import { relatedBy } from './related-loaders.js';

/** The number of related rows of this parent (a product's stock, a category's products); `kind` names the relation and its filter. */
export function relatedCount(
  ctx: RequestContext,
  kind: string,
  parentId: string,
  count: (parentIds: readonly string[]) => Promise<Map<string, number>>,
): Promise<number> {
  return relatedBy(ctx, `count:${kind}`, parentId, count, 0);
}

/**
 * The resolver of a related connection's own `totalCount` field, counted by `relatedCount`: the connection carries its
 * parent row and its arguments (`parent`, `args`); `kind` names the loader for those arguments.
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
