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

/**
 * One statement for a window of rows of every parent: the parents by key (`unnest`), each one's rows read where they
 * are stored in the window's order and limited there (a lateral LIMIT), so a parent with a million rows costs a page.
 * `from` names the table with `alias`; `parentColumn` is its column holding the parent's key (names from the code).
 */
export function windowPerParentSql(options: {
  parentIds: readonly string[];
  from: string;
  alias: string;
  parentColumn: string;
  columns: Prisma.Sql;
  conditions: Prisma.Sql[];
  window: IdWindow;
}): Prisma.Sql {
  const { parentIds, from, alias, parentColumn, columns, window } = options;
  const { conditions, orderBy } = idWindowSql(window, alias);
  conditions.push(...options.conditions, Prisma.raw(`${alias}."${parentColumn}" = parent.parent_id`));
  return Prisma.sql`
    SELECT w.* FROM unnest(${[...parentIds]}::text[]) AS parent(parent_id)
    CROSS JOIN LATERAL (
      SELECT ${columns} FROM ${Prisma.raw(from)} WHERE ${Prisma.join(conditions, ' AND ')}
      ORDER BY ${orderBy} LIMIT ${window.take}
    ) w
    ORDER BY ${Prisma.raw(`w."${parentColumn}"`)}, ${idWindowSql(window, 'w').orderBy}`;
}
