import { formatPrismaCursor } from '@pothos/plugin-prisma';
import { type GraphQLResolveInfo, Kind } from 'graphql';
import type { RequestContext } from '../context.js';
import { validationError } from '../kernel/errors.js';
import { BAD_CURSOR_MESSAGE, idOfCursor } from '../kernel/id-cursors.js';
import type { IdWindow } from '../services/id-window.js';
import type { ConnectionArguments } from './window-connection.js';
import { relatedBy } from './related-loaders.js';
import { LazyCursorEdge } from './lazy-cursor-edge.js';

const idCursor = (node: { id: string }) => formatPrismaCursor(node, 'id');

/** Page size without `first` or `last`, as the Prisma plugin's connections have it. */
const DEFAULT_SIZE = 20;

/** The window of these arguments: the page and one more row, which tells whether another page follows. */
function windowOf(args: ConnectionArguments, descending: boolean): IdWindow {
  const cursorId = (name: 'after' | 'before') => {
    const cursor = args[name];
    if (cursor == null) return undefined;
    const id = idOfCursor(cursor);
    if (id === undefined) throw validationError({ [name]: [BAD_CURSOR_MESSAGE] }, 'Invalid paging arguments');
    return id;
  };
  const size = args.first ?? args.last ?? DEFAULT_SIZE;
  return { afterId: cursorId('after'), beforeId: cursorId('before'), take: size + 1, backward: args.before != null || args.last != null, descending };
}

/**
 * A Relay connection over a parent's related records in id order, or newest first when `order` is 'desc' (cursors as
 * the Prisma plugin writes them), for every parent a request shows at once: one `load` per relation, filter and window
 * (related-loaders.ts). Its pages are the plugin's: one row more than the page tells whether another follows; a
 * backward page (`last`, `before`) reads from its end.
 */
export async function relatedIdConnection<T extends { id: string }>(
  ctx: RequestContext,
  kind: string,
  parentId: string,
  args: ConnectionArguments,
  order: 'asc' | 'desc',
  info: GraphQLResolveInfo,
  load: (parentIds: readonly string[], window: IdWindow) => Promise<Map<string, T[]>>,
) {
  const window = windowOf(args, order === 'desc');
  // Only the total asked for (its own loader counts it): no page is read.
  if (selectsTotalCountOnly(info)) return { edges: [] as LazyCursorEdge<T>[], pageInfo: { startCursor: null, endCursor: null, hasPreviousPage: false, hasNextPage: false } };
  const key = `page:${kind}\u0000${window.afterId ?? ''}\u0000${window.beforeId ?? ''}\u0000${window.take}\u0000${window.backward}`;
  const rows = await relatedBy<T[]>(ctx, key, parentId, (ids) => load(ids, window), []);
  const full = rows.length === window.take;
  const nodes = full ? (window.backward ? rows.slice(1) : rows.slice(0, -1)) : rows;
  const edges = nodes.map((node, index) => new LazyCursorEdge(node, index, idCursor));
  return {
    edges,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
      hasPreviousPage: args.after != null ? true : window.backward ? full : false,
      hasNextPage: args.before != null ? true : args.last != null ? false : full,
    },
  };
}

/** Does the connection's selection hold nothing but its totalCount (and __typename)? A fragment counts as more. */
function selectsTotalCountOnly(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.every(
    (field) => field.selectionSet?.selections.every((s) => s.kind === Kind.FIELD && (s.name.value === 'totalCount' || s.name.value === '__typename')) ?? false,
  );
}
