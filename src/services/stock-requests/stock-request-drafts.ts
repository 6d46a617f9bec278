import type { z } from 'zod';
import type { stockRequestCreate, stockRequestMove, stockRequestUpdate } from '../../contracts/stock-requests/stock-requests.js';
import type { RequestContext } from '../../context.js';
import { inTransaction, type TxContext } from '../../db/transactions.js';
import { validationError } from '../../kernel/errors.js';
import { dateOnly } from '../../kernel/iso-dates.js';
import { actorOf } from '../actor-of.js';
import { appendEvents } from '../events/outbox/append-events.js';
import { checkFilterIds } from '../filter-ids.js';
import { orgId } from '../tenant.js';
import { REQUEST_WITH_LINES, type StockRequestWithLines } from './stock-request-shape.js';
import { lockRequestFor, recordEvent } from './stock-request-state.js';

/** The inputs as their contracts output them (parsed once, where they come in). */
export type StockRequestCreateInput = z.output<typeof stockRequestCreate>;
export type StockRequestUpdateInput = z.output<typeof stockRequestUpdate>;
export type StockRequestMoveInput = z.output<typeof stockRequestMove>;

/**
 * The organization's next request number. Creations of one organization queue on a transaction-level
 * advisory lock, so two of them never read the same highest number.
 */
async function nextNumber(ctx: TxContext): Promise<number> {
  const organizationId = orgId(ctx);
  await ctx.prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`stock-request-number:${organizationId}`}))`;
  const last = await ctx.prisma.stockRequest.aggregate({ where: { organizationId }, _max: { number: true } });
  return (last._max.number ?? 0) + 1;
}

const lineRows = (lines: StockRequestCreateInput['lines']) =>
  lines.map((line) => ({ productMasterId: line.productMasterId, quantityRequested: line.quantityRequested, unit: line.unit ?? null }));

/** A DRAFT request with its lines, numbered, and CREATED in its history. Locations or products not of the organization: 404. */
export async function createStockRequest(ctx: RequestContext, input: StockRequestCreateInput): Promise<StockRequestWithLines> {
  await checkFilterIds(ctx, { locationId: [input.requestingLocationId, input.supplyingLocationId], productMasterId: input.lines.map((l) => l.productMasterId) });
  const { actorType, createdBy } = actorOf(ctx);
  return inTransaction(ctx, async (ctx) => {
    const request = await ctx.prisma.stockRequest.create({
      data: {
        organizationId: orgId(ctx),
        number: await nextNumber(ctx),
        requestingLocationId: input.requestingLocationId,
        supplyingLocationId: input.supplyingLocationId,
        neededBy: dateOnly(input.neededBy),
        priority: input.priority ?? 'NORMAL',
        reason: input.reason ?? null,
        requesterType: actorType,
        requesterId: createdBy,
        lines: { create: lineRows(input.lines) },
      },
    });
    await recordEvent(ctx, request.id, 'CREATED', { to: 'DRAFT' });
    return ctx.prisma.stockRequest.findUniqueOrThrow({ where: { id: request.id }, ...REQUEST_WITH_LINES });
  });
}

/** Changes a DRAFT request's fields; lines given replace all. Any other state: 409 INVALID_STATE, nothing changed. */
export async function updateStockRequest(ctx: RequestContext, input: StockRequestUpdateInput): Promise<StockRequestWithLines> {
  await checkFilterIds(ctx, { locationId: [input.requestingLocationId, input.supplyingLocationId], productMasterId: input.lines?.map((l) => l.productMasterId) });
  return inTransaction(ctx, async (ctx) => {
    const request = await lockRequestFor(ctx, input.id, 'update');
    const requesting = input.requestingLocationId ?? request.requestingLocationId;
    const supplying = input.supplyingLocationId ?? request.supplyingLocationId;
    if (requesting === supplying) throw validationError({ supplyingLocationId: ['Must differ from requestingLocationId'] });
    if (input.lines) {
      await ctx.prisma.stockRequestLine.deleteMany({ where: { requestId: request.id } });
      await ctx.prisma.stockRequestLine.createMany({ data: lineRows(input.lines).map((row) => ({ ...row, requestId: request.id })) });
    }
    return ctx.prisma.stockRequest.update({
      where: { id: request.id },
      data: {
        requestingLocationId: requesting,
        supplyingLocationId: supplying,
        ...(input.neededBy !== undefined ? { neededBy: dateOnly(input.neededBy) } : {}),
        ...(input.priority !== undefined ? { priority: input.priority } : {}),
        ...(input.reason !== undefined ? { reason: input.reason } : {}),
      },
      ...REQUEST_WITH_LINES,
    });
  });
}

/** Removes a DRAFT request with its lines and history (nobody else has seen it); answers it as it was. Any other state: 409. */
export function deleteStockRequest(ctx: RequestContext, input: { id: string }): Promise<StockRequestWithLines> {
  return inTransaction(ctx, async (ctx) => {
    await lockRequestFor(ctx, input.id, 'delete');
    // Its history goes with it: the event tells its status subscription to end.
    await appendEvents(ctx, [{ type: 'stock_request.deleted', subjectId: input.id, payload: { requestId: input.id, status: 'DRAFT' } }]);
    return ctx.prisma.stockRequest.delete({ where: { id: input.id }, ...REQUEST_WITH_LINES });
  });
}
