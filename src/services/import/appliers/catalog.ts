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

/**
 * CATALOG rows `{externalId, name?, description?, unitCost?, category?}` upsert products by SKU
 * (= externalId). A new product's name defaults to externalId; on an existing product, absent
 * fields keep their values. A category named but missing is created. Within a chunk the last row of
 * a SKU wins. One INSERT ... SELECT FROM json_to_recordset(...) ON CONFLICT per chunk (two when some rows name
 * the product and some do not), so a chunk of 1,000 rows costs a handful of statements.
 */
/** The SKU a row upserts, loosely (trimmed, NFC, any case): see ROW_KEYS. */
export const catalogRowKey = (row: unknown) => looseText(row, 'externalId').normalize('NFC');

export const applyCatalogChunk: ChunkApplier = async (ctx, rows) => {
  const { bySku, rejections } = await checkCatalogRows(ctx, rows);
  if (!bySku.size) return rejections;
  const categoryIds = await ensureCategories(ctx, [...bySku.values()].flatMap((r) => (r.category ? [r.category] : [])));
  const named = [...bySku.values()].filter((r) => r.name !== undefined);
  const unnamed = [...bySku.values()].filter((r) => r.name === undefined);
  if (named.length) await upsert(ctx, named, categoryIds, true);
  if (unnamed.length) await upsert(ctx, unnamed, categoryIds, false);
  return rejections;
};

/**
 * The checks of catalog rows that write nothing: each row parsed, the last row of each SKU kept (SKUs
 * differing only by case are one), and a row refused whose SKU an existing product spells in another case.
 * The rows to upsert by SKU key, and the rejections in row order.
 */
export async function checkCatalogRows(ctx: TxContext, rows: ImportRow[]): Promise<{ bySku: Map<string, CatalogRow>; rejections: RowRejection[] }> {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const { valid, rejections } = parseRows(catalogRow, rows, { firstProblemOnly: true });
  const bySku = new Map<string, CatalogRow>();
  for (const { rowNumber, data } of valid) {
    const { externalId: sku, name, description, unitCost, category } = data;
    // SKUs differing only by case are one product: the last row of it wins, spelled as that row spells it.
    bySku.delete(skuKey(sku)); // keep the last row's position too
    bySku.set(skuKey(sku), { rowNumber, sku, name, description, unitCost, category });
  }
  // A product of the same SKU in another case exists: the row would make a second product of it.
  const keys = [...bySku.keys()];
  const stored = keys.length
    ? await tx.$queryRaw<{ sku: string }[]>`SELECT sku FROM product_masters WHERE "organizationId" = ${organizationId} AND lower(sku) = ANY(${keys}::text[])`
    : [];
  for (const { sku } of stored) {
    const row = bySku.get(skuKey(sku));
    if (row && row.sku !== sku) {
      rejections.push({ rowNumber: row.rowNumber, field: 'externalId', message: `${SKU_TAKEN_MESSAGE}: ${sku}` });
      bySku.delete(skuKey(sku));
    }
  }
  return { bySku, rejections: rejections.sort((a, b) => a.rowNumber - b.rowNumber) };
}

async function upsert(ctx: TxContext, rows: CatalogRow[], categoryIds: Map<string, string>, setName: boolean) {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const ids = uuidv7s(rows.length);
  // One JSON parameter instead of an array per column: far less work for the client per row.
  const records = rows.map((r, i) => ({
    id: ids[i],
    sku: r.sku,
    name: r.name ?? r.sku,
    description: r.description ?? null,
    cost: r.unitCost ?? null,
    category: r.category ? categoryIds.get(r.category)! : null,
  }));
  const nameUpdate = setName ? Prisma.sql`name = EXCLUDED.name,` : Prisma.empty;
  await tx.$executeRaw`
    INSERT INTO product_masters (id, "organizationId", sku, name, description, "unitCost", "categoryId", "updatedAt")
    SELECT r.id, ${organizationId}, r.sku, r.name, r.description, r.cost, r.category, now()
    FROM json_to_recordset(${JSON.stringify(records)}::json) AS r(id text, sku text, name text, description text, cost numeric, category text)
    ON CONFLICT ("organizationId", lower(sku)) DO UPDATE SET
      ${nameUpdate}
      description = COALESCE(EXCLUDED.description, product_masters.description),
      "unitCost" = COALESCE(EXCLUDED."unitCost", product_masters."unitCost"),
      "categoryId" = COALESCE(EXCLUDED."categoryId", product_masters."categoryId"),
      "updatedAt" = now()`;
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
