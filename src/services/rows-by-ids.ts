import type { RequestContext } from '../context.js';
import { directRows } from '../db/direct-rows.js';
import { Prisma } from '../generated/prisma/client.js';
import { orgId } from './tenant.js';

const columnLists = new WeakMap<object, Prisma.Sql>();

/** A model's scalar fields (Prisma's `<Model>ScalarFieldEnum`) as a column list: what findMany reads. */
function columnsOf(fields: Record<string, string>): Prisma.Sql {
  let columns = columnLists.get(fields);
  if (!columns) columnLists.set(fields, (columns = Prisma.raw(Object.values(fields).map((field) => `"${field}"`).join(', '))));
  return columns;
}

/**
 * The organization's rows of `table` among these ids (others' and unknown ids left out), with the model's scalar
 * fields as findMany reads them, in one direct statement: the per-request loaders behind every link field (a page's
 * lines' products, locations, bins, lots) spent most of their CPU in Prisma's handling of `id IN (…)`.
 * `table` is a name from the code, never from input.
 */
export function rowsByIds<T>(ctx: RequestContext, table: string, fields: Record<string, string>, ids: readonly string[]): Promise<T[]> {
  return directRows<T>(ctx, Prisma.sql`
    SELECT ${columnsOf(fields)} FROM ${Prisma.raw(table)} WHERE "organizationId" = ${orgId(ctx)} AND id = ANY(${[...ids]}::text[])`);
}
