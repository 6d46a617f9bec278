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
 */
export async function resolveSkus(ctx: TxContext, skus: Iterable<string>): Promise<Map<string, string>> {
  const tx = ctx.prisma;
  const list = [...new Set(skus)];
  if (!list.length) return new Map();
  const normalized = [...new Set(list.map(normalizeSku))];
  const found = await tx.productMaster.findMany({ where: { organizationId: orgId(ctx), sku: { in: normalized } }, select: { id: true, sku: true } });
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
