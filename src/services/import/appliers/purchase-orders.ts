import { z } from 'zod';
import type { RowRejection, ChunkApplier } from '../kinds.js';
import { orgId } from '../../tenant.js';
import { numberField, optionalIsoDate, optionalNumber, optionalText, parseRows, requiredText, resolveLocations, resolveSkus } from './references.js';

export const PURCHASE_ORDER_STATUSES = ['PENDING', 'APPROVED', 'SENT', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED'] as const;

const lineRow = z.object(
  {
    sku: requiredText(100),
    quantity: numberField({ min: 1, max: 1_000_000_000, integer: true, positive: true }),
    unitCost: optionalNumber({ min: 0, max: 1_000_000_000 }),
    expectedAt: optionalIsoDate,
  },
  'Each line must be an object',
);

/**
 * A purchase order row: the header and all its lines. `number` is the idempotent key: importing the
 * same number again updates the header and replaces the lines. Absent header fields take their default
 * on creation (status PENDING) and keep their stored value on update; a line without expectedAt
 * expects its goods on the header's expectedAt.
 */
export const purchaseOrderRow = z.object(
  {
    number: requiredText(100),
    supplierCode: requiredText(100),
    destinationLocationCode: requiredText(200),
    status: optionalText(30).pipe(z.enum(PURCHASE_ORDER_STATUSES, `Must be one of ${PURCHASE_ORDER_STATUSES.join(', ')}`).optional()),
    expectedAt: optionalIsoDate,
    lines: z.array(lineRow, 'Must be an array of lines').min(1, 'At least one line is required').max(1000, 'At most 1000 lines'),
  },
  'Each row must be a JSON object',
);

export const applyPurchaseOrderRows: ChunkApplier = async (tx, ctx, rows) => {
  const organizationId = orgId(ctx);
  const { valid, rejections } = parseRows(purchaseOrderRow, rows);
  const suppliers = new Map(
    (
      await tx.supplier.findMany({ where: { organizationId, code: { in: [...new Set(valid.map((r) => r.data.supplierCode))] } }, select: { id: true, code: true } })
    ).map((s) => [s.code, s.id]),
  );
  const locations = await resolveLocations(tx, ctx, valid.map((r) => r.data.destinationLocationCode));
  const products = await resolveSkus(tx, ctx, valid.flatMap((r) => r.data.lines.map((l) => l.sku)));

  for (const { rowNumber, data } of valid) {
    const problems: RowRejection[] = [];
    const supplierId = suppliers.get(data.supplierCode);
    if (!supplierId) problems.push({ rowNumber, field: 'supplierCode', message: `Unknown supplier code ${data.supplierCode}` });
    const destinationLocationId = locations.get(data.destinationLocationCode);
    if (!destinationLocationId) problems.push({ rowNumber, field: 'destinationLocationCode', message: `Unknown location ${data.destinationLocationCode}` });
    data.lines.forEach((line, i) => {
      if (!products.has(line.sku)) problems.push({ rowNumber, field: `lines.${i}.sku`, message: `Unknown SKU ${line.sku}` });
    });
    if (problems.length || !supplierId || !destinationLocationId) {
      rejections.push(...problems);
      continue;
    }

    const order = await tx.purchaseOrder.upsert({
      where: { organizationId_number: { organizationId, number: data.number } },
      create: { organizationId, number: data.number, supplierId, destinationLocationId, status: data.status ?? 'PENDING', expectedAt: data.expectedAt ?? null },
      update: { supplierId, destinationLocationId, status: data.status, expectedAt: data.expectedAt },
      select: { id: true, expectedAt: true },
    });
    await tx.purchaseOrderLine.deleteMany({ where: { purchaseOrderId: order.id } });
    await tx.purchaseOrderLine.createMany({
      data: data.lines.map((line, i) => ({
        purchaseOrderId: order.id,
        lineNumber: i + 1,
        productMasterId: products.get(line.sku)!,
        quantity: line.quantity,
        unitCost: line.unitCost ?? null,
        expectedAt: line.expectedAt ?? order.expectedAt,
      })),
    });
  }
  return rejections.sort((a, b) => a.rowNumber - b.rowNumber);
};
