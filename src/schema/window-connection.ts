import { decodeBase64 } from '@pothos/core';
import { offsetToCursor } from '@pothos/plugin-relay';
import type { ListWindow } from '../services/tenant.js';
import { LazyCursorEdge } from './lazy-cursor-edge.js';

const positionCursor = (_node: unknown, position: number) => offsetToCursor(position);

/** Paging arguments of a Relay connection as GraphQL hands them over. */
export interface ConnectionArguments {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** What a service answers for a window of a computed list: those items, how many there are in all, and any page-level fields. */
export type WindowAnswer<T> = { items: T[]; total: number };

/**
 * Extensions of a connection over a computed list (a forecast, a report, a list the database cannot page by
 * id): its cursors are positions in the list, checked as such before anything runs (connection-arguments.ts).
 */
export const positionCursors = (maxPageSize?: number) => ({ cursorKind: 'position', ...(maxPageSize ? { maxPageSize } : {}) });

/** A position cursor's offset, or undefined when the text is not one. */
export function positionOf(cursor: string): number | undefined {
  try {
    const match = /^OffsetConnection:(0|[1-9]\d{0,8})$/.exec(decodeBase64(cursor));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A Relay connection over a list a service answers by window (skip and take) with its total. The window
 * follows Relay's rules (after/first forward, before/last backward); `last` without `before` counts from the
 * end, so the total is read first with an empty window. Page-level fields the service answers (a forecast's
 * horizon, a report's period) stay on the connection beside edges and pageInfo.
 */
export async function windowConnection<T, Page extends object = object>(
  args: ConnectionArguments,
  defaultSize: number,
  load: (window: ListWindow) => Promise<WindowAnswer<T> & Page>,
) {
  let start = args.after != null ? positionOf(args.after)! + 1 : 0;
  let end = args.before != null ? positionOf(args.before)! : Number.POSITIVE_INFINITY;
  if (args.first != null) end = Math.min(end, start + args.first);
  if (args.last != null && end === Number.POSITIVE_INFINITY) end = (await load({ skip: 0, take: 0 })).total;
  if (args.last != null) start = Math.max(start, end - args.last);
  if (args.first == null && args.last == null) end = Math.min(end, start + defaultSize);
  const take = Math.max(0, end - start);
  const { items, total, ...page } = await load({ skip: start, take });
  const edges = items.map((node, index) => new LazyCursorEdge(node, start + index, positionCursor));
  return {
    ...page,
    totalCount: total,
    edges,
    pageInfo: {
      startCursor: edges.length ? edges[0]!.cursor : null,
      endCursor: edges.length ? edges.at(-1)!.cursor : null,
      hasPreviousPage: start > 0 && total > 0,
      hasNextPage: start + items.length < total,
    },
  };
}
