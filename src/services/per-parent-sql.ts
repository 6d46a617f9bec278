import { Prisma } from '../generated/prisma/client.js';
import { type IdWindow, idWindowSql } from './id-window.js';

// Statements that read something of each of many parents (a product's stock lines, a category's products, an import
// job's row errors) at once: the parents named by key (`unnest`), each one's rows read where they are stored, so a
// parent with a million rows costs what it is asked for, and no statement reads the table as a whole.

/** `from` names the table with `alias`; `parentColumn` is its column holding the parent's key (names from the code). */
interface PerParent {
  parentIds: readonly string[];
  from: string;
  alias: string;
  parentColumn: string;
  /** Further conditions on the rows (the organization, a filter). */
  conditions: Prisma.Sql[];
}

const parents = (parentIds: readonly string[]) => Prisma.sql`unnest(${[...parentIds]}::text[]) AS parent(parent_id)`;
const ofParent = ({ alias, parentColumn }: PerParent) => Prisma.raw(`${alias}."${parentColumn}" = parent.parent_id`);

/** How many rows each parent has: rows `{ parent_id, count }`, one per parent, each counted on the parent's index. */
export function countPerParentSql(options: PerParent): Prisma.Sql {
  const conditions = [...options.conditions, ofParent(options)];
  return Prisma.sql`
    SELECT parent.parent_id, (SELECT COUNT(*)::int FROM ${Prisma.raw(options.from)} WHERE ${Prisma.join(conditions, ' AND ')}) AS count
    FROM ${parents(options.parentIds)}`;
}

/** Rows `{ parent_id, count }` as a map from parent to count. */
export const countsByParent = (rows: { parent_id: string; count: number }[]) => new Map(rows.map((row) => [row.parent_id, row.count]));

/** A window of each parent's rows (`columns`) in the window's order, limited where they are read (a lateral LIMIT). */
export function windowPerParentSql(options: PerParent & { columns: Prisma.Sql; window: IdWindow }): Prisma.Sql {
  const { alias, parentColumn, columns, window } = options;
  const { conditions, orderBy } = idWindowSql(window, alias);
  conditions.push(...options.conditions, ofParent(options));
  return Prisma.sql`
    SELECT w.* FROM ${parents(options.parentIds)}
    CROSS JOIN LATERAL (
      SELECT ${columns} FROM ${Prisma.raw(options.from)} WHERE ${Prisma.join(conditions, ' AND ')}
      ORDER BY ${orderBy} LIMIT ${window.take}
    ) w
    ORDER BY ${Prisma.raw(`w."${parentColumn}"`)}, ${idWindowSql(window, 'w').orderBy}`;
}
