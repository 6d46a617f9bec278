import type { z } from 'zod';
import type { inventoryTransferCreate, inventoryTransferUpdate } from '../../../contracts/transfers/inventory-transfers/inventory-transfer.js';
import type { RequestContext } from '../../../context.js';
import { validationError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';
import { checkTransferRefs } from './transfer-references.js';
import { TRANSFER_WITH_LINES, type TransferWithLines } from './transfer-shape.js';
import { lockTransferFor, TRANSFER_TRANSACTION, transferActor } from './transfer-state.js';
import { inTransaction } from '../../../db/transactions.js';

/** The inputs as their contracts output them (parsed once, where they come in). */
export type TransferCreateInput = z.output<typeof inventoryTransferCreate>;
export type TransferUpdateInput = z.output<typeof inventoryTransferUpdate>;

const dateOrNull = (text: string | null | undefined) => (text ? new Date(`${text}T00:00:00.000Z`) : text === null ? null : undefined);

const lineRows = (lines: TransferCreateInput['lines']) =>
  lines.map((line, i) => ({
    lineNumber: i + 1,
    productMasterId: line.productMasterId,
    quantity: line.quantity,
    lotId: line.lotId ?? null,
    binId: line.binId ?? null,
    destBinId: line.destBinId ?? null,
  }));

/** A DRAFT transfer (POST /api/inventory/transfers): no stock moves until it is shipped. */
export async function createTransfer(ctx: RequestContext, input: TransferCreateInput): Promise<TransferWithLines> {
  await checkTransferRefs(ctx, input);
  const actor = transferActor(ctx);
  return ctx.prisma.inventoryTransfer.create({
    data: {
      organizationId: orgId(ctx),
      sourceLocationId: input.sourceLocationId,
      destLocationId: input.destLocationId,
      reference: input.reference ?? null,
      notes: input.notes ?? null,
      expectedAt: dateOrNull(input.expectedAt) ?? null,
      createdByType: actor.type,
      createdBy: actor.id,
      lines: { create: lineRows(input.lines) },
    },
    ...TRANSFER_WITH_LINES,
  });
}

/**
 * Field updates of a DRAFT transfer (action update): locations, reference, notes, expected date, and
 * lines (replacing all). Other states: 409 INVALID_STATE.
 */
export async function updateTransfer(ctx: RequestContext, id: string, input: TransferUpdateInput): Promise<TransferWithLines> {
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const transfer = await lockTransferFor(ctx, id, 'update');
    const sourceLocationId = input.sourceLocationId ?? transfer.sourceLocationId;
    const destLocationId = input.destLocationId ?? transfer.destLocationId;
    const lines = input.lines ?? (await tx.inventoryTransferLine.findMany({ where: { transferId: id }, orderBy: { lineNumber: 'asc' } }));
    if (sourceLocationId === destLocationId) {
      throw validationError({ destLocationId: ['Must differ from sourceLocationId'] });
    }
    await checkTransferRefs(ctx, { sourceLocationId, destLocationId, lines });
    if (input.lines) await tx.inventoryTransferLine.deleteMany({ where: { transferId: id } });
    return tx.inventoryTransfer.update({
      where: { id },
      data: {
        sourceLocationId,
        destLocationId,
        ...(input.reference !== undefined ? { reference: input.reference } : {}),
        ...(input.notes !== undefined ? { notes: input.notes } : {}),
        ...(input.expectedAt !== undefined ? { expectedAt: dateOrNull(input.expectedAt) } : {}),
        ...(input.lines ? { lines: { create: lineRows(input.lines) } } : {}),
      },
      ...TRANSFER_WITH_LINES,
    });
  }, TRANSFER_TRANSACTION);
}
