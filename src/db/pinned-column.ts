import { Prisma } from '../generated/prisma/client.js';

/**
 * `column` equal to `value` written as a closed range, and the order that goes with it (the column, then id,
 * in `direction`), so the planner reads an id-ordered page from the index led by that column. Written as `=` with
 * `ORDER BY id`, the page could also be read by walking the primary key and filtering, which the planner prefers
 * when the rows asked for are a large share of the table; ids are time-ordered, so when a location's lines (or an
 * organization's rows) were all created after the others', that walk reads every other row first: 120 ms for the
 * first page of the last of five locations of 100,000 products, 0.1 ms by index (docs/lists.md). The statement must not
 * also compare the column with `=`: an equality makes it a constant to the planner, and the order by id alone again.
 */
export function pinnedColumn(column: string, value: string, direction: 'ASC' | 'DESC' = 'ASC') {
  const name = Prisma.raw(column);
  const dir = Prisma.raw(direction);
  return { where: Prisma.sql`${name} >= ${value} AND ${name} <= ${value}`, orderBy: Prisma.sql`${name} ${dir}, id ${dir}` };
}
