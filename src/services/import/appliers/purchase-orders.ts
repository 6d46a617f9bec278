import { uuidv7s } from '../../../db/ids.js';
import type { ChunkApplier, ImportRow, RowRejection } from '../jobs/kinds.js';
import type { TxContext } from '../../../db/transactions.js';
import { orgId } from '../../tenant.js';
import { purchaseOrderRow } from '../../../contracts/import/purchase-order-row.js';
import { parseRows } from './parse-rows.js';
import { resolveLocations, resolveSkus } from './references.js';

export const applyPurchaseOrderRows: ChunkApplier = async (ctx, rows) => {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const { accepted, products, rejections } = await checkPurchaseOrderRows(ctx, rows);
  // The same number twice in one chunk: the later row wins, as if they were applied one after the other
  // (each replaces the order's lines; an absent header field keeps what the earlier row would have set).
  const orders = mergeSameNumber(accepted);
  if (!orders.length) return rejections.sort((a, b) => a.rowNumber - b.rowNumber);

  const day = (date: Date | undefined) => (date ? date.toISOString().slice(0, 10) : null);
  const ids = uuidv7s(orders.length);
  // The headers in one statement, in key order (row locks in one order for every chunk): new ones with
  // their defaults; existing ones take supplier and destination here ...
  const upserted = await tx.$queryRaw<{ id: string; number: string }[]>`
    INSERT INTO purchase_orders (id, "organizationId", number, "supplierId", "destinationLocationId", status, "expectedAt", "updatedAt")
    SELECT u.id, ${organizationId}, u.number, u.supplier, u.location, COALESCE(u.status, 'PENDING')::"PurchaseOrderStatus", u.expected, now()
    FROM unnest(${ids}::text[], ${orders.map((o) => o.data.number)}::text[], ${orders.map((o) => o.supplierId)}::text[],
                ${orders.map((o) => o.destinationLocationId)}::text[], ${orders.map((o) => o.data.status ?? null)}::text[],
                ${orders.map((o) => day(o.data.expectedAt))}::date[]) AS u(id, number, supplier, location, status, expected)
    ORDER BY u.number COLLATE "C"
    ON CONFLICT ("organizationId", number) DO UPDATE SET
      "supplierId" = EXCLUDED."supplierId", "destinationLocationId" = EXCLUDED."destinationLocationId", "updatedAt" = now()
    RETURNING id, number`;
  const idOf = new Map(upserted.map((o) => [o.number, o.id]));
  // ... and status and expectedAt only where the row gives them (the rows are locked already).
  const headers = await tx.$queryRaw<{ id: string; expectedAt: Date | null }[]>`
    UPDATE purchase_orders p SET
      status = COALESCE(u.status::"PurchaseOrderStatus", p.status),
      "expectedAt" = CASE WHEN u.expected_given THEN u.expected ELSE p."expectedAt" END
    FROM unnest(${orders.map((o) => idOf.get(o.data.number)!)}::text[], ${orders.map((o) => o.data.status ?? null)}::text[],
                ${orders.map((o) => day(o.data.expectedAt))}::date[], ${orders.map((o) => o.data.expectedAt !== undefined)}::boolean[])
      AS u(id, status, expected, expected_given)
    WHERE p.id = u.id
    RETURNING p.id, p."expectedAt"`;
  const expectedAt = new Map(headers.map((h) => [h.id, h.expectedAt]));
  await tx.purchaseOrderLine.deleteMany({ where: { purchaseOrderId: { in: [...idOf.values()] } } });
  await tx.purchaseOrderLine.createMany({
    data: orders.flatMap(({ data }) => {
      const purchaseOrderId = idOf.get(data.number)!;
      return data.lines.map((line, i) => ({
        purchaseOrderId,
        lineNumber: i + 1,
        productMasterId: products.get(line.sku)!,
        quantity: line.quantity,
        unitCost: line.unitCost ?? null,
        expectedAt: line.expectedAt ?? expectedAt.get(purchaseOrderId) ?? null,
      }));
    }),
  });
  return rejections.sort((a, b) => a.rowNumber - b.rowNumber);
};

/** One entry per number: the last row's supplier, destination and lines, and its status and expectedAt, or the last given earlier. */
function mergeSameNumber<T extends { data: { number: string; status?: string; expectedAt?: Date } }>(rows: T[]): T[] {
  const byNumber = new Map<string, T>();
  for (const row of rows) {
    const earlier = byNumber.get(row.data.number);
    byNumber.delete(row.data.number);
    byNumber.set(
      row.data.number,
      earlier ? { ...row, data: { ...row.data, status: row.data.status ?? earlier.data.status, expectedAt: row.data.expectedAt ?? earlier.data.expectedAt } } : row,
    );
  }
  return [...byNumber.values()];
}

/**
 * The checks of purchase order rows that write nothing: each row parsed, its supplier, destination and SKUs
 * resolved in the caller's organization. The rows that pass with their ids, and the products by SKU.
 */
export async function checkPurchaseOrderRows(ctx: TxContext, rows: ImportRow[]) {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const { valid, rejections } = parseRows(purchaseOrderRow, rows);
  const suppliers = new Map(
    (
      await tx.supplier.findMany({ where: { organizationId, code: { in: [...new Set(valid.map((r) => r.data.supplierCode))] } }, select: { id: true, code: true } })
    ).map((s) => [s.code, s.id]),
  );
  const locations = await resolveLocations(ctx, valid.map((r) => r.data.destinationLocationCode));
  const products = await resolveSkus(ctx, valid.flatMap((r) => r.data.lines.map((l) => l.sku)));

  const accepted: { data: (typeof valid)[number]['data']; supplierId: string; destinationLocationId: string }[] = [];
  for (const { rowNumber, data } of valid) {
    const problems: RowRejection[] = [];
    const supplierId = suppliers.get(data.supplierCode);
    if (!supplierId) problems.push({ rowNumber, field: 'supplierCode', message: `Unknown supplier code ${data.supplierCode}` });
    const destinationLocationId = locations.get(data.destinationLocationCode);
    if (!destinationLocationId) problems.push({ rowNumber, field: 'destinationLocationCode', message: `Unknown location ${data.destinationLocationCode}` });
    data.lines.forEach((line, i) => {
      if (!products.has(line.sku)) problems.push({ rowNumber, field: `lines.${i}.sku`, message: `Unknown SKU ${line.sku}` });
    });
    if (problems.length || !supplierId || !destinationLocationId) rejections.push(...problems);
    else accepted.push({ data, supplierId, destinationLocationId });
  }
  return { accepted, products, rejections: rejections.sort((a, b) => a.rowNumber - b.rowNumber) };
}
