import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { calendarDateText } from '../../date-times.js';
import { mustBe } from '../../parse.js';
import { optionalNote } from '../../text-fields.js';

/** Most lines one transfer may have. */
export const TRANSFER_MAX_LINES = 500;

export const TRANSFER_STATUSES = ['DRAFT', 'IN_TRANSIT', 'RECEIVED', 'CANCELLED'] as const;

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required');
const quantity = z.number({ error: mustBe('a whole number') }).int('Must be a whole number').positive('Must be greater than 0').max(MAX_INT, `At most ${MAX_INT}`);
const reference = z.string({ error: mustBe('text') }).trim().max(200, 'At most 200 characters').nullish();

/** One line of a transfer as asked for. */
export const transferLineInput = z.strictObject({
  productMasterId: id.meta({ description: 'The product to move (400 when it is not one of the organization).' }),
  quantity: quantity.meta({ description: 'Units to move, more than 0.' }),
  lotId: id.nullish().meta({ description: "Ship only from this lot of the product (400 when unknown or another product's lot). Absent: first-expiring lots first." }),
  binId: id.nullish().meta({ description: 'Ship only from this bin of the source location (400 when unknown or at another location).' }),
  destBinId: id.nullish().meta({ description: 'Put the units into this bin of the destination on receipt (400 when unknown or at another location).' }),
});

const lines = z
  .array(transferLineInput, { error: mustBe('a list of lines') })
  .min(1, 'At least one line')
  .max(TRANSFER_MAX_LINES, `At most ${TRANSFER_MAX_LINES} lines`);

const locations = {
  sourceLocationId: id.meta({ description: 'Where the stock leaves from (400 when it is not one of the organization).' }),
  destLocationId: id.meta({ description: 'Where the stock goes (400 when it is not one of the organization); not the source.' }),
};

const differentLocations = <T extends { sourceLocationId?: string | null; destLocationId?: string | null }>(value: T, ctx: z.RefinementCtx) => {
  if (value.sourceLocationId && value.sourceLocationId === value.destLocationId) {
    ctx.addIssue({ code: 'custom', path: ['destLocationId'], message: 'Must differ from sourceLocationId' });
  }
};

/** Body of POST /api/inventory/transfers and input of createInventoryTransfer: a DRAFT transfer. */
export const inventoryTransferCreate = z
  .strictObject({
    ...locations,
    lines: lines.meta({ description: 'What to move: one entry per product (and lot or bin), in order.' }),
    reference: reference.meta({ description: 'Your reference, for example a document number.' }),
    notes: optionalNote(2000).meta({ description: 'Free text.' }),
    expectedAt: calendarDateText.nullish().meta({ description: 'Expected arrival date (YYYY-MM-DD).' }),
  })
  .superRefine(differentLocations);

/** Field updates of a DRAFT transfer; lines, when given, replace all lines. */
export const inventoryTransferUpdate = z
  .strictObject({
    sourceLocationId: locations.sourceLocationId.optional(),
    destLocationId: locations.destLocationId.optional(),
    lines: lines.optional().meta({ description: 'Replaces every line of the transfer.' }),
    reference: reference.meta({ description: 'Your reference; null clears it.' }),
    notes: optionalNote(2000).meta({ description: 'Free text; null clears it.' }),
    expectedAt: calendarDateText.nullish().meta({ description: 'Expected arrival date (YYYY-MM-DD); null clears it.' }),
  })
  .superRefine(differentLocations);

/** One line of a receipt. */
export const transferReceiptLine = z.strictObject({
  lineId: id.meta({ description: 'The transfer line received (400 when it is not a line of this transfer).' }),
  quantity: quantity.meta({ description: 'Units received now; at most what was shipped and not yet received (400 otherwise).' }),
  destBinId: id.nullish().meta({ description: "Bin of the destination to put them in (default: the line's destBinId)." }),
});

/** Input of receiveInventoryTransfer: lines absent means everything still in transit. */
export const inventoryTransferReceive = z.strictObject({
  lines: z
    .array(transferReceiptLine, { error: mustBe('a list of lines') })
    .min(1, 'At least one line')
    .max(TRANSFER_MAX_LINES, `At most ${TRANSFER_MAX_LINES} lines`)
    .nullish()
    .meta({ description: 'Quantities received per line (partial receipts allowed). Absent: receive everything still in transit.' }),
  comment: optionalNote(2000).meta({ description: 'Kept on the ledger rows.' }),
});

/** Input of shipInventoryTransfer and cancelInventoryTransfer. */
export const inventoryTransferNote = z.strictObject({
  comment: optionalNote(2000).meta({ description: 'Kept on the ledger rows.' }),
});

const ACTIONS = ['ship', 'receive', 'cancel', 'update'] as const;

/** Body of POST /api/inventory/transfers/{id}: one action. */
export const inventoryTransferAction = z.discriminatedUnion(
  'action',
  [
    z.strictObject({ action: z.literal('ship').meta({ description: 'DRAFT → IN_TRANSIT: the stock leaves the source.' }), comment: inventoryTransferNote.shape.comment }),
    z.strictObject({
      action: z.literal('receive').meta({ description: 'Receive shipped units at the destination; RECEIVED when every shipped unit is in.' }),
      ...inventoryTransferReceive.shape,
    }),
    z.strictObject({
      action: z.literal('cancel').meta({ description: 'DRAFT or IN_TRANSIT → CANCELLED; units still in transit go back to the source lots they left.' }),
      comment: inventoryTransferNote.shape.comment,
    }),
    z.strictObject({ action: z.literal('update').meta({ description: 'Field updates while DRAFT.' }), ...inventoryTransferUpdate.shape }),
  ],
  { error: (issue) => (issue.input === undefined ? 'Required' : `One of ${ACTIONS.join(', ')}`) },
);

/**
 * Input of inventoryTransferAction: the body of POST /api/inventory/transfers/{id} as GraphQL takes it, the
 * receipt and the changes in fields of their own (the REST adapter moves them there).
 */
export const inventoryTransferActionInput = z.strictObject({
  action: z.enum(ACTIONS, { error: (issue) => (issue.input === undefined ? 'Required' : `One of ${ACTIONS.join(', ')}`) }).meta({ description: 'The action.' }),
  comment: optionalNote(2000).meta({ description: 'Kept on the ledger rows (ship, cancel; receive without a receipt).' }),
  receipt: inventoryTransferReceive.nullish().meta({ description: 'The receipt (receive); absent: everything still in transit.' }),
  changes: inventoryTransferUpdate.nullish().meta({ description: 'The changes (update).' }),
});

/** What a transfer created by the service was made for: a recommendation's execution, expired stock sent for destruction, or a stock request's fulfilment. */
export const SHIPPED_TRANSFER_SOURCES = ['RECOMMENDATION', 'DESTRUCTION', 'STOCK_REQUEST'] as const;

/**
 * Input of createShippedTransfer (a service call, for executing a recommendation and sending expired stock
 * for destruction): created and shipped at once. A DESTRUCTION transfer's lines name the exact lot and bin
 * (none meaning none) of the stock line they empty.
 */
export const shippedTransferInput = z
  .strictObject({
    ...locations,
    lines: z
      .array(
        z.strictObject({
          productMasterId: id,
          quantity,
          lotId: id.nullish(),
          binId: id.nullish(),
          // Units a document reserved on one stock line: taken from exactly that line's lot and bin (none meaning none), not from another line of a wider match.
          exact: z.boolean().optional(),
        }),
        { error: mustBe('a list of lines') },
      )
      .min(1, 'At least one line')
      .max(TRANSFER_MAX_LINES, `At most ${TRANSFER_MAX_LINES} lines`),
    sourceType: z.enum(SHIPPED_TRANSFER_SOURCES).optional(),
    sourceId: z.string().max(200).optional(),
    reference: reference,
  })
  .superRefine(differentLocations);
