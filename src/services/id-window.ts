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
