import type { z } from 'zod';
import type { batchLine } from '../../../contracts/inventory/receiving/stock-batch.js';
import { newFieldErrors, validationError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';
import { dateOnly, isoDay } from '../../../kernel/iso-dates.js';
import { createStockLines, lineKeyOf } from '../ledger/stock-ledger.js';
import type { TxContext } from '../../../db/transactions.js';

/** Interactive transaction limits for a batch of up to MAX_LINES (src/contracts/inventory/receiving/stock-batch.ts) lines. */
export const BATCH_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };

export type BatchLine = z.output<ReturnType<typeof batchLine>>;

export interface ResolvedLine<L extends BatchLine = BatchLine> {
  index: number;
  input: L;
  stockLineId: string;
  lotCode: string | null;
  expiryDate: Date | null;
  lotRecalled: boolean | null;
  binCode: string | null;
}

const unique = <T>(values: T[]) => [...new Set(values)];
const lotKey = (productMasterId: string, lotCode: string) => `${productMasterId}\u0000${lotCode}`;

/**
 * Checks every line of a batch and finds or creates its lot, bin and stock line, inside the caller's
 * transaction. Problems are gathered per line (`lines.3.productMasterId`) and thrown together before
 * anything is written. Lots, bins and lines are created with INSERT ... ON CONFLICT DO NOTHING, in a
 * fixed order, so concurrent batches naming the same new lot or line share one row and cannot deadlock.
 */
export async function resolveBatch<L extends BatchLine>(ctx: TxContext, lines: L[]): Promise<ResolvedLine<L>[]> {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const details = newFieldErrors();
  const problem = (index: number, field: string, message: string) => (details[`lines.${index}.${field}`] ??= []).push(message);

  const productIds = unique(lines.map((l) => l.productMasterId));
  const locationIds = unique(lines.map((l) => l.locationId));
  const products = new Set((await tx.productMaster.findMany({ where: { organizationId, id: { in: productIds } }, select: { id: true } })).map((p) => p.id));
  const locations = new Set((await tx.location.findMany({ where: { organizationId, id: { in: locationIds } }, select: { id: true } })).map((l) => l.id));
  const batchExpiry = new Map<string, { expiry: string; index: number }>();
  lines.forEach((line, i) => {
    if (!products.has(line.productMasterId)) problem(i, 'productMasterId', 'Product not found');
    if (!locations.has(line.locationId)) problem(i, 'locationId', 'Location not found');
    if (line.expiryDate && !line.lotCode) problem(i, 'expiryDate', 'Only with a lotCode');
    if (!line.lotCode || !line.expiryDate) return;
    const earlier = batchExpiry.get(lotKey(line.productMasterId, line.lotCode));
    if (earlier && earlier.expiry !== line.expiryDate) problem(i, 'expiryDate', `Line ${earlier.index} gives lot ${line.lotCode} the expiry date ${earlier.expiry}`);
    else if (!earlier) batchExpiry.set(lotKey(line.productMasterId, line.lotCode), { expiry: line.expiryDate, index: i });
  });
  if (Object.keys(details).length) throw validationError(details);

  const lots = await findOrCreateLots(ctx, lines, batchExpiry);
  lines.forEach((line, i) => {
    if (!line.lotCode || !line.expiryDate) return;
    const stored = isoDay(lots.get(lotKey(line.productMasterId, line.lotCode))!.expiryDate);
    if (stored !== line.expiryDate) problem(i, 'expiryDate', `Lot ${line.lotCode} already exists with expiry date ${stored ?? 'none'}`);
  });
  if (Object.keys(details).length) throw validationError(details);

  const binKeys = unique(lines.filter((l) => l.binCode).map((l) => `${l.locationId}\u0000${l.binCode}`)).sort();
  if (binKeys.length) {
    const data = binKeys.map((key) => ({ organizationId, locationId: key.split('\u0000')[0]!, code: key.split('\u0000')[1]! }));
    await tx.bin.createMany({ data, skipDuplicates: true });
  }
  const bins = binKeys.length
    ? await tx.bin.findMany({ where: { organizationId, locationId: { in: locationIds }, code: { in: unique(lines.flatMap((l) => (l.binCode ? [l.binCode] : []))) } } })
    : [];
  const binOf = new Map(bins.map((b) => [`${b.locationId}\u0000${b.code}`, b]));

  const keyed = lines.map((line) => {
    const lot = line.lotCode ? lots.get(lotKey(line.productMasterId, line.lotCode))! : null;
    const bin = line.binCode ? binOf.get(`${line.locationId}\u0000${line.binCode}`)! : null;
    const key = { productMasterId: line.productMasterId, locationId: line.locationId, lotId: lot?.id ?? null, binId: bin?.id ?? null };
    return { line, lot, bin, key, id: `${key.productMasterId}|${key.locationId}|${lineKeyOf(key)}` };
  });
  const newLines = [...new Map(keyed.map((k) => [k.id, k.key])).entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  await createStockLines(ctx, newLines.map(([, key]) => key));
  const stored = await tx.stockLine.findMany({
    where: { organizationId, productMasterId: { in: productIds }, locationId: { in: locationIds }, lineKey: { in: unique(newLines.map(([, key]) => lineKeyOf(key))) } },
    select: { id: true, productMasterId: true, locationId: true, lineKey: true },
  });
  const lineOf = new Map(stored.map((s) => [`${s.productMasterId}|${s.locationId}|${s.lineKey}`, s.id]));

  return keyed.map(({ line, lot, bin, id }, index) => ({
    index,
    input: line,
    stockLineId: lineOf.get(id)!,
    lotCode: lot?.code ?? null,
    expiryDate: lot?.expiryDate ?? null,
    lotRecalled: lot?.recalled ?? null,
    binCode: bin?.code ?? null,
  }));
}

async function findOrCreateLots(ctx: TxContext, lines: BatchLine[], batchExpiry: Map<string, { expiry: string }>) {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const keys = unique(lines.filter((l) => l.lotCode).map((l) => lotKey(l.productMasterId, l.lotCode!))).sort();
  if (!keys.length) return new Map();
  const data = keys.map((key) => {
    const [productMasterId, code] = key.split('\u0000') as [string, string];
    const expiry = batchExpiry.get(key)?.expiry;
    return { organizationId, productMasterId, code, expiryDate: expiry ? dateOnly(expiry) : null };
  });
  await tx.lot.createMany({ data, skipDuplicates: true });
  const lots = await tx.lot.findMany({
    where: { organizationId, productMasterId: { in: unique(data.map((d) => d.productMasterId)) }, code: { in: unique(data.map((d) => d.code)) } },
  });
  return new Map(lots.map((lot) => [lotKey(lot.productMasterId, lot.code), lot]));
}
