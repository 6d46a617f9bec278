import { z } from 'zod';
import { MAX_INT } from '../../kernel/input-limits.js';
import { dateTime } from '../date-times.js';
import { mustBe } from '../parse.js';
import { optionalNote } from '../text-fields.js';

export const SHIPMENT_STATUSES = ['RESERVED', 'PICKED', 'PACKED', 'SHIPPED', 'DELIVERED', 'CANCELLED'] as const;
export const MAX_SHIPMENT_LINES = 200;

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters');
const shipmentId = id.meta({ description: 'The shipment (404 when it is not one of the organization).' });

/** One order line to ship, and how many of its units. */
export const shipmentLineInput = z.strictObject({
  orderLineId: id.meta({ description: 'A line of the order (400 when it is not one of its lines).' }),
  quantity: z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .min(1, 'Must be greater than 0')
    .max(MAX_INT, `At most ${MAX_INT}`)
    .meta({ description: 'Units to ship, more than 0 and at most what the order line has not yet put on a shipment.' }),
});

/** Body of POST /api/shipments and input of createShipment. */
export const shipmentCreate = z
  .strictObject({
    salesOrderId: id.optional().meta({ description: 'The sales order to ship (400 when it is not one of the organization). Exactly one of salesOrderId and transferId.' }),
    transferId: id.optional().meta({
      description: 'The DRAFT inventory transfer to ship, whole, from its source location (400 when it is not one of the organization). Exactly one of salesOrderId and transferId.',
    }),
    lines: z
      .array(shipmentLineInput, { error: mustBe('a list of lines') })
      .min(1, 'At least one line')
      .max(MAX_SHIPMENT_LINES, `At most ${MAX_SHIPMENT_LINES} lines`)
      .optional()
      .meta({ description: `The order lines to ship (1 to ${MAX_SHIPMENT_LINES}, each once); absent: every unit of the order not yet on a shipment. Not with transferId: a transfer ships whole.` }),
    note: optionalNote(1000).meta({ description: 'Free text for the warehouse, up to 1000 characters.' }),
  })
  .superRefine((input, issue) => {
    if (!input.salesOrderId === !input.transferId) {
      const message = 'Exactly one of salesOrderId and transferId';
      issue.addIssue({ code: 'custom', path: [input.salesOrderId ? 'transferId' : 'salesOrderId'], message });
    }
    if (input.transferId && input.lines) issue.addIssue({ code: 'custom', path: ['lines'], message: 'A transfer ships whole: lines are only for a sales order' });
    const seen = new Set<string>();
    input.lines?.forEach((line, i) => {
      if (seen.has(line.orderLineId)) issue.addIssue({ code: 'custom', path: ['lines', i, 'orderLineId'], message: 'Each order line at most once' });
      seen.add(line.orderLineId);
    });
  });

/** Body of POST /api/shipments/{id}/pick and /cancel: nothing (an empty object or none). */
export const shipmentNoBody = z.strictObject({});

/** Input of pickShipment and cancelShipment. */
export const shipmentMove = z.strictObject({ id: shipmentId });

/** Body of POST /api/shipments/{id}/pack. */
export const shipmentPackBody = z.strictObject({
  packageCount: z
    .number({ error: mustBe('a whole number') })
    .int('Must be a whole number')
    .min(1, 'Must be greater than 0')
    .max(10_000, 'At most 10000')
    .meta({ description: 'Packages (boxes, pallets) the shipment is packed in, 1 to 10000.' }),
  weightKg: z
    .number({ error: mustBe('a number') })
    .positive('Must be greater than 0')
    .max(1_000_000, 'At most 1000000')
    .nullish()
    .meta({ description: 'Total weight in kilograms, more than 0 and at most 1000000 (optional).' }),
});
export const shipmentPack = z.strictObject({ id: shipmentId, ...shipmentPackBody.shape });

const shortText = (what: string) => z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(100, 'At most 100 characters').meta({ description: `${what}, up to 100 characters.` });

/** Body of POST /api/shipments/{id}/ship. */
export const shipmentShipBody = z.strictObject({
  carrier: shortText('The carrier (UPS, DHL, own truck)'),
  trackingNumber: shortText("The carrier's tracking number").nullish(),
});
export const shipmentShip = z.strictObject({ id: shipmentId, ...shipmentShipBody.shape });

/** Body of POST /api/shipments/{id}/deliver. */
export const shipmentDeliverBody = z.strictObject({
  deliveredAt: dateTime
    .nullish()
    .meta({ description: 'When the customer received it (ISO 8601 date-time with a time zone; default now); not before it shipped, not in the future.' }),
});
export const shipmentDeliver = z.strictObject({ id: shipmentId, ...shipmentDeliverBody.shape });
