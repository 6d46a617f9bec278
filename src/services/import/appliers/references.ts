import { normalizeSku } from '../../../contracts/products/sku-rules.js';
import { orgId } from '../../tenant.js';
import { normalizedLocationCode } from '../../../kernel/location-codes.js';
import type { TxContext } from '../../../db/transactions.js';

/**
 * Resolves location references of import rows, each either a location's code (`DC-EAST`) or its
 * normalized form `<organizationId>-<locationId>`, to location ids of the caller's organization, with one
 * query. A reference the map lacks is unknown: another organization's codes and ids never resolve.
 * A code wins over the normalized form when both would match.
 */
export async function resolveLocations(ctx: TxContext, refs: Iterable<string>): Promise<Map<string, string>> {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const codes = [...new Set(refs)];
  if (!codes.length) return new Map();
  const prefix = normalizedLocationCode(organizationId, '');
  const ids = codes.filter((ref) => ref.startsWith(prefix) && ref.length > prefix.length).map((ref) => ref.slice(prefix.length));
  const found = await tx.location.findMany({
    where: { organizationId, OR: [{ code: { in: codes } }, ...(ids.length ? [{ id: { in: ids } }] : [])] },
    select: { id: true, code: true },
  });
  const byCode = new Map(found.map((l) => [l.code, l.id]));
  const byId = new Set(found.map((l) => l.id));
  const map = new Map<string, string>();
  for (const ref of codes) {
    const id = byCode.get(ref) ?? (ref.startsWith(prefix) && byId.has(ref.slice(prefix.length)) ? ref.slice(prefix.length) : undefined);
    if (id) map.set(ref, id);
  }
  return map;
}

/**
 * Resolves SKUs to product ids of the caller's organization, with one query, keyed by the text given. A
 * SKU matches exactly (case-sensitive) once normalized as products store it (Unicode NFC).
 *
 * Each SKU is looked up through the (organization, lower(sku)) unique index and compared exactly after it
 * (the subquery is a fence): asked `sku = ANY(...)` or `sku IN (...)`, the planner may serve the equality
 * from the trigram index of SKUs (pg_trgm answers `=`), whose estimates lag after an import and whose
 * pending list is scanned for every value. Measured after a 100,000-row catalog import: 9 s for 500 SKUs
 * through the trigram index, 4 ms through the B-tree.
 */
export async function resolveSkus(ctx: TxContext, skus: Iterable<string>): Promise<Map<string, string>> {
  const tx = ctx.prisma;
  const list = [...new Set(skus)];
  if (!list.length) return new Map();
  const normalized = [...new Set(list.map(normalizeSku))];
  const found = await tx.$queryRaw<{ id: string; sku: string }[]>`
    SELECT id, sku FROM (
      SELECT p.id, p.sku, u.sku AS wanted
      FROM unnest(${normalized}::text[]) AS u(sku)
      JOIN product_masters p ON p."organizationId" = ${orgId(ctx)} AND lower(p.sku) = lower(u.sku)
      OFFSET 0
    ) x WHERE sku = wanted`;
  const ids = new Map(found.map((p) => [p.sku, p.id]));
  return new Map(list.flatMap((sku) => (ids.has(normalizeSku(sku)) ? [[sku, ids.get(normalizeSku(sku))!] as const] : [])));
}

/** Keeps the last row of each key (rows later in the request win), in request order. */
export function lastPerKey<T>(rows: T[], keyOf: (row: T) => string): T[] {
  const last = new Map<string, T>();
  for (const row of rows) {
    const key = keyOf(row);
    last.delete(key);
    last.set(key, row);
  }
  return [...last.values()];
}
