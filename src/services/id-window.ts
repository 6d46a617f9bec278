import { Prisma } from '../generated/prisma/client.js';

/**
 * A window of a list in id order (ascending, or newest first when `descending`): the rows after or before an id in
 * that order, at most `take` of them, read from the list's end when `backward`.
 */
export interface IdWindow {
  afterId?: string;
  beforeId?: string;
  take: number;
  backward: boolean;
  descending: boolean;
}

/** The window's conditions on the row named `alias` (a name from the code, never input) and the order to read it in. */
export function idWindowSql(window: IdWindow, alias: string): { conditions: Prisma.Sql[]; orderBy: Prisma.Sql } {
  const id = Prisma.raw(`${alias}.id`);
  const conditions: Prisma.Sql[] = [];
  if (window.afterId !== undefined) conditions.push(window.descending ? Prisma.sql`${id} < ${window.afterId}` : Prisma.sql`${id} > ${window.afterId}`);
  if (window.beforeId !== undefined) conditions.push(window.descending ? Prisma.sql`${id} > ${window.beforeId}` : Prisma.sql`${id} < ${window.beforeId}`);
  const readDescending = window.descending !== window.backward;
  return { conditions, orderBy: Prisma.sql`${id} ${Prisma.raw(readDescending ? 'DESC' : 'ASC')}` };
}

/** Rows read by the window, grouped by `parentOf`, each group in the list's order (a backward window reads it reversed). */
export function groupedInListOrder<T>(parentIds: readonly string[], rows: T[], parentOf: (row: T) => string, window: IdWindow): Map<string, T[]> {
  const byParent = new Map<string, T[]>(parentIds.map((id) => [id, []]));
  for (const row of rows) byParent.get(parentOf(row))?.push(row);
  if (window.backward) for (const list of byParent.values()) list.reverse();
  return byParent;
}

/** The paging part of a findMany over a list in id order (the Prisma plugin's connection query), and anything else it carries. */
export interface IdPagedQuery {
  take?: number;
  skip?: number;
  cursor?: { id?: string };
  [other: string]: unknown;
}

/**
 * The window a connection query of the Prisma plugin asks for (take is the page and one more, negative when it pages
 * backward; skip 1 steps over the cursor's own row), or undefined when the query carries more than its paging (the
 * relations a selection needs, which Prisma loads with the page) or a shape the plugin does not write.
 */
export function idWindowOfQuery(query: IdPagedQuery, descending: boolean): IdWindow | undefined {
  const { take, skip, cursor, ...rest } = query;
  if (Object.keys(rest).length > 0 || typeof take !== 'number' || !Number.isInteger(take)) return undefined;
  if (cursor !== undefined && typeof cursor.id !== 'string') return undefined;
  if ((skip ?? 0) !== (cursor ? 1 : 0)) return undefined;
  const backward = take < 0;
  return { afterId: backward ? undefined : cursor?.id, beforeId: backward ? cursor?.id : undefined, take: Math.abs(take), backward, descending };
}
