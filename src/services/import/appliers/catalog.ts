import { uuidv7, uuidv7s } from '../../../db/ids.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';
import type { TxContext } from '../../../db/transactions.js';
import type { ChunkApplier, ImportRow, RowRejection } from '../jobs/kinds.js';
import { catalogRow } from '../../../contracts/import/catalog-row.js';
import { SKU_TAKEN_MESSAGE, skuKey } from '../../../contracts/products/sku-rules.js';
import { parseRows } from './parse-rows.js';
import { looseText } from './row-keys.js';

interface CatalogRow {
  rowNumber: number;
  sku: string;
  name?: string;
  description?: string;
  unitCost?: number;
  category?: string;
}

/** The SKU a row upserts, loosely (trimmed, NFC, any case): see ROW_KEYS. */
export const catalogRowKey = (row: unknown) => looseText(row, 'externalId').normalize('NFC');

/**
 * CATALOG rows `{externalId, name?, description?, unitCost?, category?}` upsert products by SKU
 * (= externalId). A new product's name defaults to externalId; on an existing product, absent
 * fields keep their values. A category named but missing is created. Within a chunk the last row of
 * a SKU wins. One INSERT ... SELECT FROM json_to_recordset(...) ON CONFLICT per chunk (two when some rows name
 * the product and some do not), which also finds the rows spelling an existing SKU in another case, so a
 * chunk costs a handful of statements.
 */
export const applyCatalogChunk: ChunkApplier = async (ctx, rows) => {
  const { bySku, rejections } = parseCatalogRows(rows);
  if (!bySku.size) return rejections;
  // A category named but missing is created only for rows that will be written: when the chunk names one,
  // the rows spelling an existing SKU in another case are found first (rare: the first chunks of a file
  // with new categories). Otherwise the upsert itself finds them (its conflict probe is the lookup).
  let categoryIds = await findCategories(ctx, [...bySku.values()].flatMap((r) => (r.category ? [r.category] : [])));
  const missing = [...bySku.values()].some((r) => r.category && !categoryIds.has(r.category));
  if (missing) {
    rejections.push(...(await refuseOtherCase(ctx, bySku)));
    categoryIds = await ensureCategories(ctx, [...bySku.values()].flatMap((r) => (r.category ? [r.category] : [])));
  }
  const named = [...bySku.values()].filter((r) => r.name !== undefined);
  const unnamed = [...bySku.values()].filter((r) => r.name === undefined);
  if (named.length) rejections.push(...(await upsert(ctx, named, categoryIds, true)));
  if (unnamed.length) rejections.push(...(await upsert(ctx, unnamed, categoryIds, false)));
  return rejections.sort((a, b) => a.rowNumber - b.rowNumber);
};

/**
 * The checks of catalog rows that write nothing: each row parsed, the last row of each SKU kept (SKUs
 * differing only by case are one), and a row refused whose SKU an existing product spells in another case.
 * The rows to upsert by SKU key, and the rejections in row order.
 */
export async function checkCatalogRows(ctx: TxContext, rows: ImportRow[]): Promise<{ bySku: Map<string, CatalogRow>; rejections: RowRejection[] }> {
  const { bySku, rejections } = parseCatalogRows(rows);
  rejections.push(...(await refuseOtherCase(ctx, bySku)));
  return { bySku, rejections: rejections.sort((a, b) => a.rowNumber - b.rowNumber) };
}

/** Each row parsed with its contract; the last row of each SKU kept (SKUs differing only by case are one). */
function parseCatalogRows(rows: ImportRow[]): { bySku: Map<string, CatalogRow>; rejections: RowRejection[] } {
  const { valid, rejections } = parseRows(catalogRow, rows, { firstProblemOnly: true });
  const bySku = new Map<string, CatalogRow>();
  for (const { rowNumber, data } of valid) {
    const { externalId: sku, name, description, unitCost, category } = data;
    // SKUs differing only by case are one product: the last row of it wins, spelled as that row spells it.
    bySku.delete(skuKey(sku)); // keep the last row's position too
    bySku.set(skuKey(sku), { rowNumber, sku, name, description, unitCost, category });
  }
  return { bySku, rejections };
}

const otherCase = (row: { rowNumber: number }, stored: string): RowRejection => ({ rowNumber: row.rowNumber, field: 'externalId', message: `${SKU_TAKEN_MESSAGE}: ${stored}` });

/**
 * Takes out of `bySku` the rows whose SKU an existing product spells in another case (the row would make
 * a second product of it) and returns their rejections.
 */
async function refuseOtherCase(ctx: TxContext, bySku: Map<string, CatalogRow>): Promise<RowRejection[]> {
  const keys = [...bySku.keys()];
  if (!keys.length) return [];
  const stored = await ctx.prisma.$queryRaw<{ sku: string }[]>`
    SELECT sku FROM product_masters WHERE "organizationId" = ${orgId(ctx)} AND lower(sku) = ANY(${keys}::text[])`;
  const rejections: RowRejection[] = [];
  for (const { sku } of stored) {
    const row = bySku.get(skuKey(sku));
    if (row && row.sku !== sku) {
      rejections.push(otherCase(row, sku));
      bySku.delete(skuKey(sku));
    }
  }
  return rejections;
}

/**
 * Upserts the rows with one statement and returns the rejections of the rows it did not write: a product
 * spelling the row's SKU in another case exists. The conflict arbiter is the (organization, lower(sku))
 * index, so such a row conflicts; the update applies only when the stored SKU is spelled as the row spells
 * it, and the rows neither inserted nor updated are looked up (in the statement's snapshot, as before it).
 */
async function upsert(ctx: TxContext, rows: CatalogRow[], categoryIds: Map<string, string>, setName: boolean): Promise<RowRejection[]> {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const ids = uuidv7s(rows.length);
  // One JSON parameter instead of an array per column: far less work for the client per row.
  const records = rows.map((r, i) => ({
    n: r.rowNumber,
    id: ids[i],
    sku: r.sku,
    name: r.name ?? r.sku,
    description: r.description ?? null,
    cost: r.unitCost ?? null,
    category: r.category ? (categoryIds.get(r.category) ?? null) : null,
  }));
  const nameUpdate = setName ? Prisma.sql`name = EXCLUDED.name,` : Prisma.empty;
  const refused = await tx.$queryRaw<{ n: number; sku: string | null }[]>`
    WITH input AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(records)}::json) AS r(n int, id text, sku text, name text, description text, cost numeric, category text)
    ), written AS (
      INSERT INTO product_masters (id, "organizationId", sku, name, description, "unitCost", "categoryId", "updatedAt")
      SELECT id, ${organizationId}, sku, name, description, cost, category, now() FROM input
      ON CONFLICT ("organizationId", lower(sku)) DO UPDATE SET
        ${nameUpdate}
        description = COALESCE(EXCLUDED.description, product_masters.description),
        "unitCost" = COALESCE(EXCLUDED."unitCost", product_masters."unitCost"),
        "categoryId" = COALESCE(EXCLUDED."categoryId", product_masters."categoryId"),
        "updatedAt" = now()
      WHERE product_masters.sku = EXCLUDED.sku
      RETURNING sku
    )
    SELECT i.n, (SELECT p.sku FROM product_masters p WHERE p."organizationId" = ${organizationId} AND lower(p.sku) = lower(i.sku)) AS sku
    FROM input i WHERE NOT EXISTS (SELECT 1 FROM written w WHERE w.sku = i.sku)`;
  return refused.map((r) => otherCase({ rowNumber: Number(r.n) }, r.sku ?? ''));
}

/** Category ids by name, of the categories that exist. */
async function findCategories(ctx: TxContext, names: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(names)];
  if (!unique.length) return new Map();
  const found = await ctx.prisma.$queryRaw<{ id: string; name: string }[]>`
    SELECT id, name FROM categories WHERE "organizationId" = ${orgId(ctx)} AND name = ANY(${unique}::text[])`;
  return new Map(found.map((c) => [c.name, c.id]));
}

/** Category ids by name, creating the missing categories. */
async function ensureCategories(ctx: TxContext, names: string[]): Promise<Map<string, string>> {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  // Sorted, so that chunks applied at once insert shared new names in the same order (no deadlock).
  const unique = [...new Set(names)].sort();
  if (!unique.length) return new Map();
  const ids = unique.map(() => uuidv7());
  await tx.$executeRaw`
    INSERT INTO categories (id, "organizationId", name, "updatedAt")
    SELECT u.id, ${organizationId}, u.name, now() FROM unnest(${ids}::text[], ${unique}::text[]) AS u(id, name)
    ON CONFLICT ("organizationId", name) DO NOTHING`;
  const found = await tx.$queryRaw<{ id: string; name: string }[]>`
    SELECT id, name FROM categories WHERE "organizationId" = ${organizationId} AND name = ANY(${unique}::text[])`;
  return new Map(found.map((c) => [c.name, c.id]));
}
