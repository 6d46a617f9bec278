// Put-away: stock received at a location but not yet in a bin (stock lines with no bin), each with a
// suggested bin, and the confirmation that moves units of those lines into bins through the house's one
// bin-move path (moveWithinLocation: the reservations service's withdraw, then the ledger).
import type { z } from 'zod';
import { PUT_AWAY_DEFAULT_LIMIT, type putAwayConfirm, type putAwayTaskQuery } from '../../../contracts/inventory/put-away/put-away.js';
import type { RequestContext } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { uuidv7 } from '../../../db/ids.js';
import { inTransaction } from '../../../db/transactions.js';
import { DomainError, newFieldErrors, notFound, validationError } from '../../../kernel/errors.js';
import { checkFilterIds } from '../../filter-ids.js';
import { type ListWindow, orgId } from '../../tenant.js';
import { moveWithinLocation, type WithinLocationMove } from '../../transfers/bin-moves/bin-moves.js';
import { TRANSFER_TRANSACTION } from '../../transfers/inventory-transfers/transfer-state.js';
import { availableQty, BUCKET_COLUMN, PARTS, startOfTodayUtc } from '../stock-lines/quantities.js';

export type PutAwayTaskArgs = z.output<typeof putAwayTaskQuery>;
export type PutAwayConfirmInput = z.output<typeof putAwayConfirm>;

/** Which rule chose a task's suggested bin, in the order they are tried. */
export const SUGGESTION_RULES = ['PREFERRED_BIN', 'SAME_LOT', 'SAME_PRODUCT', 'EMPTY_BIN', 'NONE'] as const;
export type SuggestionRule = (typeof SUGGESTION_RULES)[number];

/** The ledger rows of a put-away: transactionType and sourceType, sourceId the put-away's id. */
export const PUT_AWAY = 'PUT_AWAY';

/**
 * Un-binned stock lines of the location with units available to move (not of an expired or recalled lot:
 * those go the expired-stock way), by SKU, then lot expiry (none last), then line; each with its
 * suggested bin. A connection's window replaces limit and offset.
 */
export async function listPutAwayTasks(ctx: RequestContext, args: PutAwayTaskArgs, window?: ListWindow) {
  const organizationId = orgId(ctx);
  const location = await ctx.prisma.location.findFirst({ where: { id: args.locationId, organizationId }, select: { id: true } });
  if (!location) throw notFound('Location');
  await checkFilterIds(ctx, { productMasterId: args.productMasterId, lotId: args.lotId });
  const limit = window ? window.take : (args.limit ?? PUT_AWAY_DEFAULT_LIMIT);
  const offset = window ? window.skip : (args.offset ?? 0);
  // Chosen, counted and paged in SQL: an imported location may hold every one of its lines without a bin.
  const available = Prisma.raw(['sl."qtyOnHand"', ...PARTS.map((part) => `sl."${BUCKET_COLUMN[part]}"`)].join(' - '));
  const open = Prisma.sql`
    FROM stock_lines sl JOIN product_masters pm ON pm.id = sl."productMasterId" LEFT JOIN lots lot ON lot.id = sl."lotId"
    WHERE sl."organizationId" = ${organizationId} AND sl."locationId" = ${location.id} AND sl."binId" IS NULL AND ${available} > 0
      AND (lot.id IS NULL OR (NOT lot.recalled AND (lot."expiryDate" IS NULL OR lot."expiryDate" >= ${startOfTodayUtc()})))
      ${args.productMasterId ? Prisma.sql`AND sl."productMasterId" = ${args.productMasterId}` : Prisma.empty}
      ${args.lotId ? Prisma.sql`AND sl."lotId" = ${args.lotId}` : Prisma.empty}`;
  const [ids, counted] = await Promise.all([
    ctx.prisma.$queryRaw<{ id: string }[]>`SELECT sl.id ${open} ORDER BY pm.sku, lot."expiryDate" NULLS LAST, sl.id LIMIT ${limit} OFFSET ${offset}`,
    ctx.prisma.$queryRaw<{ total: number }[]>`SELECT COUNT(*)::int AS total ${open}`,
  ]);
  const found = await ctx.prisma.stockLine.findMany({
    where: { id: { in: ids.map((row) => row.id) } },
    include: { productMaster: { select: { sku: true, name: true } }, lot: { select: { code: true, expiryDate: true } } },
  });
  const total = counted[0]!.total;
  const byId = new Map(found.map((line) => [line.id, line]));
  const page = ids.map((row) => byId.get(row.id)!);
  const suggest = await suggester(ctx, location.id, page);
  const tasks = page.map((line) => ({
    stockLineId: line.id,
    locationId: line.locationId,
    productMasterId: line.productMasterId,
    sku: line.productMaster.sku,
    productName: line.productMaster.name,
    lotId: line.lotId,
    lotCode: line.lot?.code ?? null,
    expiryDate: line.lot?.expiryDate ?? null,
    qtyOnHand: line.qtyOnHand,
    qtyToPutAway: availableQty(line),
    ...suggest(line),
  }));
  return { tasks, total, limit, offset };
}

/**
 * The suggested bin of un-binned lines at a location: the product's level's preferred bin when it is a bin
 * of the location; else the bin (by code) already holding units of the product and lot; else of the
 * product; else the first empty bin by code; else none.
 */
async function suggester(ctx: RequestContext, locationId: string, lines: { productMasterId: string; lotId: string | null }[]) {
  const organizationId = orgId(ctx);
  const products = [...new Set(lines.map((l) => l.productMasterId))];
  if (!products.length) return () => ({ suggestedBinId: null, suggestedBinCode: null, suggestionRule: 'NONE' as SuggestionRule });
  const [bins, levels, held, occupied] = await Promise.all([
    ctx.prisma.bin.findMany({ where: { organizationId, locationId }, orderBy: [{ code: 'asc' }, { id: 'asc' }], select: { id: true, code: true } }),
    ctx.prisma.inventoryLevel.findMany({ where: { organizationId, locationId, productMasterId: { in: products } }, select: { productMasterId: true, preferredBinLocationId: true } }),
    ctx.prisma.stockLine.findMany({
      where: { organizationId, locationId, productMasterId: { in: products }, binId: { not: null }, qtyOnHand: { gt: 0 } },
      select: { productMasterId: true, lotId: true, binId: true },
    }),
    ctx.prisma.stockLine.findMany({ where: { organizationId, locationId, binId: { not: null }, qtyOnHand: { gt: 0 } }, distinct: ['binId'], select: { binId: true } }),
  ]);
  const byId = new Map(bins.map((b) => [b.id, b]));
  const preferred = new Map(levels.map((l) => [l.productMasterId, l.preferredBinLocationId]));
  const taken = new Set(occupied.map((o) => o.binId));
  const empty = bins.find((b) => !taken.has(b.id));
  const first = (ids: (string | null)[]) => bins.find((b) => ids.includes(b.id));
  return (line: { productMasterId: string; lotId: string | null }) => {
    const ofProduct = held.filter((h) => h.productMasterId === line.productMasterId);
    const pick = (bin: { id: string; code: string } | undefined, rule: SuggestionRule) => (bin ? { suggestedBinId: bin.id, suggestedBinCode: bin.code, suggestionRule: rule } : null);
    const pref = preferred.get(line.productMasterId);
    return (
      pick(pref ? byId.get(pref) : undefined, 'PREFERRED_BIN') ??
      pick(first(ofProduct.filter((h) => h.lotId === line.lotId).map((h) => h.binId)), 'SAME_LOT') ??
      pick(first(ofProduct.map((h) => h.binId)), 'SAME_PRODUCT') ??
      pick(empty, 'EMPTY_BIN') ?? { suggestedBinId: null, suggestedBinCode: null, suggestionRule: 'NONE' as SuggestionRule }
    );
  };
}

/**
 * Confirms a put-away: each line moves units of an un-binned stock line of the location into a bin of the
 * location (by id, code, or the suggested one), all or nothing, in one transaction; PUT_AWAY ledger rows
 * out of the un-binned line and into the bin's line of the same lot, sourceType PUT_AWAY, one sourceId.
 */
export async function confirmPutAway(ctx: RequestContext, input: PutAwayConfirmInput) {
  const organizationId = orgId(ctx);
  const lineIds = [...new Set(input.lines.map((l) => l.stockLineId))];
  const [location, stockLines, bins] = await Promise.all([
    ctx.prisma.location.count({ where: { id: input.locationId, organizationId } }),
    ctx.prisma.stockLine.findMany({ where: { organizationId, id: { in: lineIds } }, select: { id: true, locationId: true, binId: true, productMasterId: true, lotId: true } }),
    ctx.prisma.bin.findMany({
      where: { organizationId, OR: [{ id: { in: input.lines.flatMap((l) => (l.binId ? [l.binId] : [])) } }, { locationId: input.locationId, code: { in: input.lines.flatMap((l) => (l.binCode ? [l.binCode] : [])) } }] },
      select: { id: true, code: true, locationId: true },
    }),
  ]);
  const details = newFieldErrors();
  if (!location) details.locationId = ['Location not found'];
  const lineOf = new Map(stockLines.map((s) => [s.id, s]));
  const suggestions = location ? await suggester(ctx, input.locationId, stockLines.filter((s) => s.locationId === input.locationId && !s.binId)) : null;
  const moves: WithinLocationMove[] = [];
  for (const [i, l] of input.lines.entries()) {
    const line = lineOf.get(l.stockLineId);
    if (!line) {
      details[`lines.${i}.stockLineId`] = ['Stock line not found'];
      continue;
    }
    if (line.locationId !== input.locationId || line.binId) {
      if (location) details[`lines.${i}.stockLineId`] = ['Not un-binned stock of this location'];
      continue;
    }
    let toBinId: string | null | undefined;
    if (l.binId) {
      const bin = bins.find((b) => b.id === l.binId);
      if (!bin) details[`lines.${i}.binId`] = ['Bin not found'];
      else if (bin.locationId !== input.locationId) details[`lines.${i}.binId`] = ['Not a bin of this location'];
      else toBinId = bin.id;
    } else if (l.binCode) {
      toBinId = bins.find((b) => b.code === l.binCode && b.locationId === input.locationId)?.id;
      if (!toBinId) details[`lines.${i}.binCode`] = ['No bin of this location has this code'];
    } else if (suggestions) {
      toBinId = suggestions(line).suggestedBinId;
      if (!toBinId) details[`lines.${i}.binId`] = ['Required: the location has no bin to suggest'];
    }
    if (toBinId) moves.push({ productMasterId: line.productMasterId, locationId: line.locationId, lotId: line.lotId, fromBinId: null, toBinId, quantity: l.quantity, exact: true });
  }
  if (Object.keys(details).length) throw validationError(details);

  const putAwayId = uuidv7();
  const source = { transactionType: PUT_AWAY, sourceType: PUT_AWAY, sourceId: putAwayId, comment: input.comment ?? null };
  return inTransaction(ctx, async (ctx) => {
    const moved = await moveWithinLocation(ctx, moves, source, (short) => {
      const shortDetails = Object.fromEntries(short.map((s) => [`lines.${s.index}.quantity`, [`Only ${s.got} available on the line (asked ${moves[s.index]!.quantity})`]]));
      throw new DomainError('INSUFFICIENT_STOCK', 'Not enough available un-binned stock', { details: shortDetails });
    });
    return {
      putAwayId,
      locationId: input.locationId,
      lines: moved.map((m, i) => ({ stockLineId: input.lines[i]!.stockLineId, productMasterId: m.productMasterId, lotId: m.lotId, binId: m.toBinId, quantity: m.quantity, toStockLineId: m.pieces[0]!.toStockLineId })),
    };
  }, TRANSFER_TRANSACTION);
}
