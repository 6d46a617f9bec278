import type { z } from 'zod';
import type { StockLine } from '../../../generated/prisma/client.js';
import { setLevelMinimums } from '../../inventory/levels/level-minimums.js';
import { type LineQuantities, partsOf } from '../../inventory/stock-lines/quantities.js';
import { createStockLines, lineKeyOf, applyStockChangeSeries, type StockChange } from '../../inventory/ledger/stock-ledger.js';
import { orgId } from '../../tenant.js';
import type { ChunkApplier, ImportRow, RowRejection } from '../jobs/kinds.js';
import type { RowCheck } from './row-check.js';
import { inventoryRow } from '../../../contracts/import/inventory-row.js';
import { parseRows } from './parse-rows.js';
import { lastPerKey, resolveLocations, resolveSkus } from './references.js';
import type { TxContext } from '../../../db/transactions.js';

type InventoryRow = { rowNumber: number } & z.output<typeof inventoryRow>;
type InventoryTarget = InventoryRow & { productMasterId: string; locationId: string };

const NO_LOT_NO_BIN = lineKeyOf({ productMasterId: '', locationId: '' });

/**
 * INVENTORY rows `{sku, locationCode, onHand = 0, reserved = 0, threshold = 0}` set the product's
 * stock line at the location (no lot, no bin) to these absolute quantities THROUGH THE LEDGER: the
 * lines are locked, the differences applied together with applyStockChangeSeries (transaction type IMPORT,
 * one ledger row per changed bucket, none when nothing changes), and the inventory level's minimum is set to the
 * threshold (reorder and maximum raised to it when lower). Rows for the same product and location apply
 * in row order, each its own change with its own ledger rows (the last one's quantities and threshold
 * stay). Unknown SKU or location, reserved above on hand, or on hand below what is held, picked,
 * recalled or expired: the row is rejected.
 */
export const applyInventoryChunk: ChunkApplier = async (ctx, rows, job) => {
  const { targets, rejections } = await checkInventoryReferences(ctx, rows);
  if (!targets.length) return rejections;
  const lines = await lockLines(ctx, lastPerKey(targets, (r) => `${r.productMasterId}|${r.locationId}`));
  const { applied, changes } = stepInventoryRows(targets, lines, job, rejections);
  // Every line is locked and was checked above: the changes go in together, two statements per chunk.
  await applyStockChangeSeries(ctx, changes);
  // One upsert may touch a level once: the last row of each line sets it.
  const minimums = lastPerKey(applied, (r) => `${r.productMasterId}|${r.locationId}`);
  await setLevelMinimums(ctx, minimums.map((r) => ({ productMasterId: r.productMasterId, locationId: r.locationId, minQuantity: r.threshold })));
  return rejections;
};

/**
 * The checks of inventory rows that write nothing: each row parsed with its contract, its SKU and
 * location resolved in the caller's organization. The rows that pass, with their product and location.
 */
export async function checkInventoryReferences(ctx: TxContext, rows: ImportRow[]): Promise<{ targets: InventoryTarget[]; rejections: RowRejection[] }> {
  const parsed = parseRows(inventoryRow, rows, { firstProblemOnly: true });
  const rejections: RowRejection[] = parsed.rejections;
  const valid: InventoryRow[] = parsed.valid.map(({ rowNumber, data }) => ({ rowNumber, ...data }));
  if (!valid.length) return { targets: [], rejections };

  const products = await resolveSkus(ctx, valid.map((r) => r.sku));
  const locations = await resolveLocations(ctx, valid.map((r) => r.locationCode));
  const targets: InventoryTarget[] = [];
  for (const row of valid) {
    const productMasterId = products.get(row.sku);
    const locationId = locations.get(row.locationCode);
    if (!productMasterId) rejections.push({ rowNumber: row.rowNumber, field: 'sku', message: `Unknown SKU ${row.sku}` });
    else if (!locationId) rejections.push({ rowNumber: row.rowNumber, field: 'locationCode', message: `Unknown location ${row.locationCode}` });
    else targets.push({ ...row, productMasterId, locationId });
  }
  return { targets, rejections };
}

/**
 * The quantity rule of inventory rows, in row order: each row is checked against, and changes, the line as
 * the rows before it left it (`lines` by `product|location`, changed in place), so every step keeps the
 * rule, as applyStockChangeSeries asks. Pushes the rows it refuses onto `rejections`.
 */
export function stepInventoryRows(
  targets: InventoryTarget[],
  lines: Map<string, LineQuantities & { id: string }>,
  job: { id: string },
  rejections: RowRejection[],
): { applied: InventoryTarget[]; changes: StockChange[] } {
  const applied: InventoryTarget[] = [];
  const changes: StockChange[] = [];
  for (const row of targets) {
    const line = lines.get(`${row.productMasterId}|${row.locationId}`)!;
    const parts = partsOf(line, (part) => part === 'RESERVED');
    if (row.reserved + parts > row.onHand) {
      rejections.push({
        rowNumber: row.rowNumber,
        field: 'onHand',
        message: `onHand ${row.onHand} is below reserved (${row.reserved}) plus the units on hold, picked, recalled or expired (${parts})`,
      });
      continue;
    }
    const deltas = { ON_HAND: row.onHand - line.qtyOnHand, RESERVED: row.reserved - line.qtyReserved };
    if (deltas.ON_HAND !== 0 || deltas.RESERVED !== 0) {
      changes.push({ stockLineId: line.id, deltas, transactionType: 'IMPORT', comment: `Import row ${row.rowNumber}`, sourceType: 'IMPORT_JOB', sourceId: job.id });
      line.qtyOnHand = row.onHand;
      line.qtyReserved = row.reserved;
    }
    applied.push(row);
  }
  return { applied, changes };
}

/**
 * The check of inventory rows for a dry run, over the chunks of one request in order: the references, then
 * the quantity rule against the (no lot, no bin) lines as they are (read, not locked; a missing line is
 * empty) and as the request's earlier rows would leave them.
 */
export function inventoryRowCheck(): RowCheck {
  const lines = new Map<string, LineQuantities & { id: string }>();
  return async (ctx, rows) => {
    const { targets, rejections } = await checkInventoryReferences(ctx, rows);
    const unread = lastPerKey(targets, (r) => `${r.productMasterId}|${r.locationId}`).filter((r) => !lines.has(`${r.productMasterId}|${r.locationId}`));
    if (unread.length) {
      const found = await ctx.prisma.stockLine.findMany({
        where: {
          organizationId: orgId(ctx),
          lineKey: NO_LOT_NO_BIN,
          productMasterId: { in: [...new Set(unread.map((r) => r.productMasterId))] },
          locationId: { in: [...new Set(unread.map((r) => r.locationId))] },
        },
      });
      const byKey = new Map(found.map((l) => [`${l.productMasterId}|${l.locationId}`, l]));
      for (const r of unread) {
        const key = `${r.productMasterId}|${r.locationId}`;
        lines.set(key, byKey.get(key) ?? { id: '', qtyOnHand: 0, qtyReserved: 0, qtyOnHold: 0, qtyPicked: 0, qtyRecalled: 0, qtyExpired: 0 });
      }
    }
    stepInventoryRows(targets, lines, { id: '' }, rejections);
    return rejections.sort((a, b) => a.rowNumber - b.rowNumber);
  };
}

/** The (no lot, no bin) lines of these products and locations, created when missing, locked in id order. */
async function lockLines(ctx: TxContext, rows: { productMasterId: string; locationId: string }[]) {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const productIds = rows.map((r) => r.productMasterId);
  const locationIds = rows.map((r) => r.locationId);
  await createStockLines(ctx, rows.map(({ productMasterId, locationId }) => ({ productMasterId, locationId })));
  // Each line is found through the (product, location, lineKey) unique index, then locked by id: joined
  // directly, the planner scanned the whole table for every chunk (its statistics lag behind an import
  // that is adding the lines), 0.3-0.6 s a chunk at 10,000 lines.
  const locked = await tx.$queryRaw<StockLine[]>`
    SELECT s.* FROM stock_lines s
    WHERE s.id = ANY(ARRAY(
        SELECT x.id FROM unnest(${productIds}::text[], ${locationIds}::text[]) AS u(product, location)
        CROSS JOIN LATERAL (
          SELECT id FROM stock_lines l
          WHERE l."productMasterId" = u.product AND l."locationId" = u.location AND l."lineKey" = ${NO_LOT_NO_BIN}
        ) x))
      AND s."organizationId" = ${organizationId}
    ORDER BY s.id
    FOR UPDATE OF s`;
  return new Map(locked.map((l) => [`${l.productMasterId}|${l.locationId}`, l]));
}
