import { builder } from '../../builder.js';
import { lotValidation } from '../../../contracts/inventory/lot-control/lot-validation.js';
import { validateLots, type LotValidationResult, type LotVerdict } from '../../../services/inventory/lot-control/lot-validation.js';
import type { LineRefusal } from '../../../services/inventory/reservations/fefo-reservations.js';
import { contractInput, parseInput } from '../../contract-input.js';
import { linked, ownRecord } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';
import { BinType, LotType, StockLineType } from '../stock-lines/stock-line.js';

const LotRefusalCodeEnum = builder.enumType('LotRefusalCode', {
  description: 'Why a pick takes nothing from a stock line.',
  values: {
    EXPIRED: { description: 'The lot expired before today.' },
    RECALLED: { description: 'The lot is recalled.' },
    SHORT_DATED: { description: 'The lot has fewer days of shelf life left than the minimum (of the product, else of the organization).' },
    ON_HOLD: { description: 'The line has no available units and some are on hold.' },
    NO_AVAILABLE_UNITS: { description: 'The line has no available units (reserved, picked, recalled or expired).' },
  } as const satisfies Record<LineRefusal, { description: string }>,
});

const LotRefusalType = builder.objectRef<NonNullable<LotVerdict['refusal']>>('LotRefusal').implement({
  description: 'Why a line may not be picked.',
  fields: (t) => ({
    code: t.expose('code', { type: LotRefusalCodeEnum, description: 'The reason code.' }),
    message: t.exposeString('message', { description: 'The reason in words.' }),
  }),
});

const LotVerdictType = builder.objectRef<LotVerdict>('LotPickVerdict').implement({
  description: 'One stock line of the product at the location, in the order a pick takes them (first expiry first, lines without expiry last).',
  fields: (t) => ({
    stockLineId: t.exposeID('stockLineId', { description: 'The stock line.' }),
    stockLine: t.field({ type: StockLineType, description: 'The stock line itself (its current state).', resolve: (row, _args, ctx) => ownRecord(ctx, 'stockLine', row.stockLineId, 'StockLine') }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'The lot (null for a line without one).' }),
    lotCode: t.exposeString('lotCode', { nullable: true, description: 'The code of the lot.' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot (null when the line has none).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.lotId) }),
    binId: t.exposeID('binId', { nullable: true, description: 'The bin, when the line is in one.' }),
    bin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The bin (null when the line is in none).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.binId) }),
    expiryDate: t.expose('expiryDate', { type: 'Date', nullable: true, description: 'Expiry date of the lot, if any.' }),
    daysToExpiry: t.exposeInt('daysToExpiry', { nullable: true, description: 'Days from today to the expiry date (negative once expired); null without one.' }),
    qtyAvailable: t.exposeInt('qtyAvailable', { description: 'Units available on the line (on hand minus every part).' }),
    qtyToPick: t.exposeInt('qtyToPick', { description: 'Units a pick of the requested quantity would take from this line now.' }),
    pickable: t.exposeBoolean('pickable', { description: 'Whether a pick may take from this line (refusal is null).' }),
    refusal: t.field({ type: LotRefusalType, nullable: true, description: 'Why a pick takes nothing from this line; null when it may.', resolve: (row) => row.refusal }),
  }),
});

const ShelfLifeSourceEnum = builder.enumType('ShelfLifeSource', {
  description: 'Whose minimum remaining shelf life applies.',
  values: {
    PRODUCT: { description: "The product's own minimum." },
    ORGANIZATION: { description: "The organization's minimum (the product has none; 0 unless set)." },
  },
});

const LotValidationResultType = builder.objectRef<LotValidationResult>('LotPickValidation').implement({
  description: 'Which lots a pick may take, first expiry first out, and whether the quantity can be met.',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    requestedQuantity: t.exposeInt('requestedQuantity', { description: 'The quantity asked for.' }),
    minShelfLifeDays: t.exposeInt('minShelfLifeDays', { description: 'Days of shelf life a lot must have left to be picked.' }),
    minShelfLifeSource: t.expose('minShelfLifeSource', { type: ShelfLifeSourceEnum, description: 'Where minShelfLifeDays comes from.' }),
    lines: t.field({
      type: [LotVerdictType],
      description: 'Every stock line of the product at the location (of the named lot and bin), in pick order. A plain list, bounded by the lines of one product at one location.',
      resolve: (r) => r.lines,
    }),
    pickableQuantity: t.exposeInt('pickableQuantity', { description: 'Available units over the pickable lines.' }),
    allocatedQuantity: t.exposeInt('allocatedQuantity', { description: 'Units a pick would take (at most the requested quantity).' }),
    canFulfill: t.exposeBoolean('canFulfill', { description: 'Whether the requested quantity can be picked in full.' }),
    shortfall: t.exposeInt('shortfall', { description: 'Requested minus allocated units (0 when it can be met).' }),
  }),
});

const LotValidationInput = contractInput('LotValidationInput', lotValidation, { description: 'What to pick: a product at a location, how many units, optionally from one lot or bin.' });

builder.queryFields((t) => ({
  validateLots: t.field({
    type: LotValidationResultType,
    description:
      'Lot control: which lots a pick of the quantity may take, first expiry first out, refusing expired, recalled, on-hold and short-dated ones ' +
      'with their reason; the reservations service answers, changing nothing. Ids that are not the organization\'s are a validation error naming the field.',
    authScopes: { permission: 'inventory.read' },
    args: { input: t.arg({ type: LotValidationInput, required: true, description: 'The product, location and quantity (or lot) to check.' }) },
    resolve: (_parent, args, ctx) => validateLots(ctx, parseInput(lotValidation, args.input)),
  }),
}));
