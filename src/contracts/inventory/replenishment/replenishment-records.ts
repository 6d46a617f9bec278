import { z } from 'zod';
import { MAX_INT } from '../../../kernel/input-limits.js';
import { calendarDateText } from '../../date-times.js';
import { mustBe } from '../../parse.js';
import { text, wholeNumberOr } from '../../query-values.js';
import { optionalNote } from '../../text-fields.js';

export const REPLENISHMENT_STATUSES = ['PROPOSED', 'APPROVED', 'ORDERED', 'CANCELLED'] as const;
export const REPLENISHMENT_SOURCE_TYPES = ['SUPPLIER', 'LOCATION'] as const;
export const REPLENISHMENT_ACTIONS = ['create', 'approve', 'convert', 'cancel'] as const;
export const REPLENISHMENT_DEFAULT_LIMIT = 50;
export const REPLENISHMENT_MAX_LIMIT = 100;
export const MAX_REPLENISHMENT_ITEMS = 200;

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters');
const filterId = text.pipe(z.string().trim().min(1).max(200, 'At most 200 characters').optional());
const STATUS_MESSAGE = `One or more (comma-separated) of ${REPLENISHMENT_STATUSES.join(', ')}, any case`;

/** Query of GET /api/inventory/replenishment and arguments of replenishmentRecords. */
export const replenishmentListQuery = z.object({
  locationId: filterId.meta({ description: 'Only records for this location (404 when it is not one of the organization).' }),
  productMasterId: filterId.meta({ description: 'Only records of this product (404 when it is not one of the organization).' }),
  status: text
    .pipe(
      z
        .string()
        .transform((value) => value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean))
        .refine((values) => values.every((v) => (REPLENISHMENT_STATUSES as readonly string[]).includes(v)), STATUS_MESSAGE)
        .optional(),
    )
    .meta({ type: 'string', description: `${STATUS_MESSAGE}.` }),
  limit: wholeNumberOr(REPLENISHMENT_DEFAULT_LIMIT, `Must be a whole number from 1 to ${REPLENISHMENT_MAX_LIMIT}`, { min: 1, max: REPLENISHMENT_MAX_LIMIT }).meta({
    description: `Page size (default ${REPLENISHMENT_DEFAULT_LIMIT}, at most ${REPLENISHMENT_MAX_LIMIT}).`,
  }),
  offset: wholeNumberOr(0, 'Must be a whole number of at least 0', { min: 0 }).meta({ description: 'Records to skip (default 0).' }),
});

/** One item to record: exactly what an item of POST /api/inventory/replenishment/suggestions carries. */
export const replenishmentItem = z
  .strictObject({
    productMasterId: id.meta({ description: 'The product (404 when it is not one of the organization).' }),
    locationId: id.meta({ description: 'The location to replenish (404 when it is not one of the organization).' }),
    quantity: z
      .number({ error: mustBe('a whole number') })
      .int('Must be a whole number')
      .positive('Must be greater than 0')
      .max(MAX_INT, `At most ${MAX_INT}`)
      .meta({ description: 'Units to order or move, more than 0.' }),
    sourceType: z
      .enum(REPLENISHMENT_SOURCE_TYPES, { error: `One of ${REPLENISHMENT_SOURCE_TYPES.join(', ')}` })
      .meta({ description: 'SUPPLIER (becomes a draft purchase order) or LOCATION (becomes an inventory transfer).' }),
    supplierId: id.nullish().meta({ description: 'The supplier, with sourceType SUPPLIER (404 when it is not one of the organization).' }),
    sourceLocationId: id.nullish().meta({ description: 'The location the units come from, with sourceType LOCATION (404 when it is not one of the organization); not locationId.' }),
    needBy: calendarDateText.meta({ description: 'Date the units are needed by (YYYY-MM-DD).' }),
    reason: optionalNote(500).meta({ description: 'Why, in words (up to 500 characters).' }),
  })
  .superRefine((item, ctx) => {
    if (item.sourceType === 'SUPPLIER') {
      if (!item.supplierId) ctx.addIssue({ code: 'custom', path: ['supplierId'], message: 'Required with sourceType SUPPLIER' });
      if (item.sourceLocationId) ctx.addIssue({ code: 'custom', path: ['sourceLocationId'], message: 'Only with sourceType LOCATION' });
    } else {
      if (!item.sourceLocationId) ctx.addIssue({ code: 'custom', path: ['sourceLocationId'], message: 'Required with sourceType LOCATION' });
      else if (item.sourceLocationId === item.locationId) ctx.addIssue({ code: 'custom', path: ['sourceLocationId'], message: 'Must differ from locationId' });
      if (item.supplierId) ctx.addIssue({ code: 'custom', path: ['supplierId'], message: 'Only with sourceType SUPPLIER' });
    }
  });

const items = z
  .array(replenishmentItem, { error: mustBe('a list of items') })
  .min(1, 'At least one item')
  .max(MAX_REPLENISHMENT_ITEMS, `At most ${MAX_REPLENISHMENT_ITEMS} items`)
  .meta({ description: `The records to create, 1 to ${MAX_REPLENISHMENT_ITEMS}, each PROPOSED; all or none.` });

/** Input of createReplenishmentRecords. */
export const replenishmentCreate = z.strictObject({ items });

/** Input of approveReplenishmentRecord, convertReplenishmentRecord and cancelReplenishmentRecord. */
export const replenishmentMove = z.strictObject({
  id: id.meta({ description: 'The replenishment record (404 when it is not one of the organization).' }),
  comment: optionalNote(2000).meta({ description: 'Kept on the record.' }),
});

const ACTION_MESSAGE = (issue: { input?: unknown }) => (issue.input === undefined ? 'Required' : `One of ${REPLENISHMENT_ACTIONS.join(', ')}`);

/** Body of POST /api/inventory/replenishment: the path carries creation and every move, named by `action`. */
export const replenishmentAction = z.discriminatedUnion(
  'action',
  [
    z.strictObject({ action: z.literal('create').meta({ description: 'Create PROPOSED records from suggestion items.' }), items }),
    z.strictObject({ action: z.literal('approve').meta({ description: 'PROPOSED → APPROVED.' }), ...replenishmentMove.shape }),
    z.strictObject({
      action: z.literal('convert').meta({ description: 'APPROVED → ORDERED: a draft purchase order (SUPPLIER) or a DRAFT inventory transfer (LOCATION).' }),
      ...replenishmentMove.shape,
    }),
    z.strictObject({ action: z.literal('cancel').meta({ description: 'PROPOSED or APPROVED → CANCELLED.' }), ...replenishmentMove.shape }),
  ],
  { error: ACTION_MESSAGE },
);

/** Input of replenishmentAction: the body of POST /api/inventory/replenishment as GraphQL takes it. */
export const replenishmentActionInput = z
  .strictObject({
    action: z.enum(REPLENISHMENT_ACTIONS, { error: ACTION_MESSAGE }).meta({ description: 'The action.' }),
    items: items.nullish(),
    id: id.nullish().meta({ description: 'The record moved (approve, convert, cancel).' }),
    comment: replenishmentMove.shape.comment,
  })
  .superRefine((input, ctx) => {
    if (input.action === 'create') {
      if (!input.items) ctx.addIssue({ code: 'custom', path: ['items'], message: 'Required with action create' });
      if (input.id) ctx.addIssue({ code: 'custom', path: ['id'], message: 'Not with action create' });
    } else {
      if (!input.id) ctx.addIssue({ code: 'custom', path: ['id'], message: `Required with action ${input.action}` });
      if (input.items) ctx.addIssue({ code: 'custom', path: ['items'], message: `Only with action create` });
    }
  });
