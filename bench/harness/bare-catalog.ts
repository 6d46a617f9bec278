// The bare server's side of the Vendure-style comparison (bench/inventory/bench-inventory.ts): a lookup by SKU
// (GET /api/products?sku=) and a product list with stock in one request (POST /graphql, the one document the
// benchmark sends), with node:http and the driver only, answered in the service's JSON.
//
// lookup: the API key, then the product by the unique index on the organization and lower(sku).
// list with stock: the API key, then ONE statement: the organization's counter, its 50 newest products, and for
// each its first 10 stock lines in id order with their count (both by the product's key).
import type { IncomingMessage, ServerResponse } from 'node:http';

type Query = (sql: string, params: unknown[]) => Promise<Record<string, any>[]>;
interface Deps {
  query: Query;
  authorize(req: IncomingMessage, res: ServerResponse, scopes: Set<string>): Promise<{ orgId: string; keyId: string } | null>;
  send(res: ServerResponse, status: number, body: unknown): void;
}

// API-key scopes granting products.read and inventory.read (src/auth/permissions.ts).
const READ_SCOPES = new Set(['*', 'inventory:read', 'inventory:write', 'inventory:*']);

const SKU_SQL = `SELECT id, sku, name, description, "organizationId", "createdAt", "updatedAt"
  FROM product_masters WHERE "organizationId" = $1 AND lower(sku) = lower($2)`;
const PARTS = `l."qtyReserved" + l."qtyOnHold" + l."qtyPicked" + l."qtyRecalled" + l."qtyExpired"`;
const STOCK_LIST_SQL = `
  SELECT c.total, p.id, p.sku, p.name,
    (SELECT count(*)::int FROM stock_lines s WHERE s."organizationId" = $1 AND s."productMasterId" = p.id) AS "lineCount",
    (SELECT coalesce(json_agg(json_build_object('id', l.id, 'locationId', l."locationId", 'quantityOnHand', l."qtyOnHand",
        'quantityAvailable', greatest(0, l."qtyOnHand" - (${PARTS}))) ORDER BY l.id), '[]')
     FROM (SELECT * FROM stock_lines s WHERE s."organizationId" = $1 AND s."productMasterId" = p.id ORDER BY s.id LIMIT 10) l) AS lines
  FROM (SELECT SUM(delta)::int AS total FROM row_count_deltas WHERE "organizationId" = $1 AND counted = 'products' AND "scopeId" = '') c
  LEFT JOIN LATERAL (SELECT id, sku, name FROM product_masters WHERE "organizationId" = $1 ORDER BY id DESC LIMIT 50) p ON true
  ORDER BY p.id DESC`;

export function catalogHandlers({ query, authorize, send }: Deps) {
  /** GET /api/products?sku=: the product with this SKU (any case) as a page of 0 or 1. */
  async function lookupBySku(req: IncomingMessage, res: ServerResponse, sku: string) {
    const key = await authorize(req, res, READ_SCOPES);
    if (!key) return;
    const rows = await query(SKU_SQL, [key.orgId, sku.trim()]);
    send(res, 200, { data: rows, meta: { page: 1, limit: 50, total: rows.length, totalPages: rows.length } });
  }

  /** POST /graphql: `{ products(first: 50) { totalCount edges { node { id sku name stock(first: 10) { … } } } } }`. */
  async function productsWithStock(req: IncomingMessage, res: ServerResponse) {
    for await (const _chunk of req); // the document is the benchmark's one
    const key = await authorize(req, res, READ_SCOPES);
    if (!key) return;
    const rows = await query(STOCK_LIST_SQL, [key.orgId]);
    const edges = rows
      .filter((row) => row.id !== null)
      .map((row) => ({
        node: { id: row.id, sku: row.sku, name: row.name, stock: { totalCount: row.lineCount, edges: row.lines.map((node: unknown) => ({ node })) } },
      }));
    send(res, 200, { data: { products: { totalCount: Number(rows[0]?.total ?? 0), edges } } });
  }

  return { lookupBySku, productsWithStock };
}
