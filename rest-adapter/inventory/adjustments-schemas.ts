import { nullableString } from '../openapi-common.js';
/** OpenAPI schemas of the adjustment, ledger history, lot correction and record-stock routes. */

const MAX_LINES = 1000;
const reasonCodeText = 'An active reason code of the organization: its id, or its code (for example DAMAGED, any case).';
const rootCauseText =
  "Why the stock was lost. Required (400 details.rootCause) when the organization's industry is HEALTHCARE and on hand drops by " +
  "the organization's largeAdjustmentThreshold (default 100) units or more.";

const quantities = {
  qtyOnHand: { type: 'integer', description: 'Units physically at the line.' },
  qtyAvailable: { type: 'integer', description: 'On hand minus reserved, on hold, picked, recalled and expired (never below 0).' },
  qtyOnHold: { type: 'integer' },
  qtyPicked: { type: 'integer' },
  qtyRecalled: { type: 'integer' },
  qtyExpired: { type: 'integer' },
  qtyReserved: { type: 'integer' },
};

const line = (quantity: string, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['productMasterId', 'locationId', 'quantity'],
  additionalProperties: false,
  properties: {
    productMasterId: { type: 'string', description: 'A product of the organization (else 400 details lines.N.productMasterId).' },
    locationId: { type: 'string', description: 'A location of the organization (else 400 details lines.N.locationId).' },
    quantity: { type: 'integer', description: quantity },
    lotCode: { ...nullableString, maxLength: 100, description: 'Lot code; the lot is created for the product when missing.' },
    expiryDate: {
      type: ['string', 'null'],
      format: 'date',
      description: 'Only with lotCode. A new lot gets this expiry; an existing lot with another (or no) expiry is a 400 (details lines.N.expiryDate).',
    },
    binCode: { ...nullableString, maxLength: 100, description: 'Bin code at the location; the bin is created when missing.' },
    comment: { ...nullableString, maxLength: 2000, description: 'Text for the ledger row.' },
    ...extra,
  },
});

export const adjustmentSchemas = {
  AdjustedStockLine: {
    type: 'object',
    description: 'A stock line (inventory item) as the change left it, read in the same transaction (availability naming).',
    required: ['id', 'productMasterId', 'locationId', ...Object.keys(quantities)],
    properties: {
      id: { type: 'string', description: 'inventoryItemId' },
      productMasterId: { type: 'string' },
      locationId: { type: 'string' },
      lotId: nullableString,
      lotCode: nullableString,
      expiryDate: { type: ['string', 'null'], format: 'date' },
      binId: nullableString,
      binCode: nullableString,
      ...quantities,
    },
  },
  LedgerEntry: {
    type: 'object',
    description: 'A stock ledger row (history entry): one change of one quantity of one stock line.',
    required: ['id', 'inventoryItemId', 'transactionType', 'bucket', 'deltaQty', 'qtyBefore', 'qtyAfter', 'createdAt', 'createdBy'],
    properties: {
      id: { type: 'string' },
      inventoryItemId: { type: 'string' },
      productMasterId: { type: 'string' },
      locationId: { type: 'string' },
      transactionType: { type: 'string', description: 'ADJUSTMENT, RECEIPT, COUNT, LOT_CORRECTION, RESERVE, PICK, ...' },
      bucket: { type: 'string', enum: ['ON_HAND', 'RESERVED', 'ON_HOLD', 'PICKED', 'RECALLED', 'EXPIRED'], description: 'Which quantity changed.' },
      deltaQty: { type: 'integer', description: 'Signed change; qtyAfter - qtyBefore.' },
      qtyBefore: { type: 'integer' },
      qtyAfter: { type: 'integer' },
      reasonCodeId: nullableString,
      reasonCode: { ...nullableString, description: 'The reason code as it was at the time.' },
      comment: nullableString,
      rootCause: nullableString,
      createdAt: { type: 'string', format: 'date-time' },
      createdBy: { type: 'string', description: 'User id, or API key id, that made the change.' },
      actorType: { type: 'string', enum: ['USER', 'API_KEY'] },
      sourceType: { ...nullableString, description: 'ADJUSTMENT, LOT_CORRECTION, RECORD_STOCK, RECORD_COUNT, ...' },
      sourceId: { ...nullableString, description: 'Shared by the rows one request wrote.' },
    },
  },
  AdjustmentResult: {
    type: 'object',
    required: ['success', 'transaction', 'inventoryItem', 'message'],
    properties: {
      success: { type: 'boolean', const: true },
      transaction: { $ref: '#/components/schemas/LedgerEntry' },
      inventoryItem: { $ref: '#/components/schemas/AdjustedStockLine' },
      message: { type: 'string', description: 'The signed change, for example "Adjusted on hand by -5 (from 20 to 15)".' },
    },
  },
  LotCorrection: {
    type: 'object',
    required: ['inventoryItemId', 'quantity'],
    additionalProperties: false,
    description: 'Give exactly one of toLotCode and toLotId.',
    properties: {
      inventoryItemId: { type: 'string', description: 'The source stock line; unknown or of another organization: 400 with details.inventoryItemId.' },
      toLotId: { ...nullableString, description: 'A lot of the same product (unknown, foreign or of another product: 400 with details.toLotId).' },
      toLotCode: { ...nullableString, maxLength: 100, description: 'The target lot code; created for the product when missing.' },
      toExpiryDate: { type: ['string', 'null'], format: 'date', description: 'Expiry of a new lot (with toLotCode); must equal an existing lot\'s.' },
      quantity: { type: 'integer', minimum: 1, description: 'Units to move; more than the source line has available (none in a recalled or expired lot): 400 INSUFFICIENT_STOCK.' },
      reasonCodeId: { ...nullableString, description: `${reasonCodeText} Must allow both directions (ANY); default LOT_CORRECTION.` },
      comment: { ...nullableString, maxLength: 2000 },
    },
  },
  LotCorrectionResult: {
    type: 'object',
    required: ['success', 'fromInventoryItem', 'toInventoryItem', 'transactions', 'message'],
    properties: {
      success: { type: 'boolean', const: true },
      fromInventoryItem: { $ref: '#/components/schemas/AdjustedStockLine' },
      toInventoryItem: { $ref: '#/components/schemas/AdjustedStockLine' },
      transactions: { type: 'array', minItems: 2, maxItems: 2, items: { $ref: '#/components/schemas/LedgerEntry' }, description: 'Source row (-quantity) then target row (+quantity).' },
      message: { type: 'string' },
    },
  },
  ReasonCode: {
    type: 'object',
    required: ['id', 'code', 'name', 'direction'],
    properties: {
      id: { type: 'string' },
      code: { type: 'string', description: 'Unique in the organization, for example DAMAGED.' },
      name: { type: 'string' },
      direction: { type: 'string', enum: ['INCREASE', 'DECREASE', 'ANY'], description: 'Which adjustments may use it.' },
    },
  },
  LedgerHistory: {
    type: 'object',
    required: ['entries', 'total', 'pagination'],
    properties: {
      entries: { type: 'array', items: { $ref: '#/components/schemas/LedgerEntry' } },
      total: { type: 'integer' },
      pagination: {
        type: 'object',
        description: 'Both pagination shapes of the interface: limit/offset/hasMore and page/pageSize/total/totalPages.',
        properties: {
          limit: { type: 'integer' },
          offset: { type: 'integer' },
          hasMore: { type: 'boolean' },
          page: { type: 'integer' },
          pageSize: { type: 'integer' },
          total: { type: 'integer' },
          totalPages: { type: 'integer' },
        },
      },
    },
  },
  RecordStockRequest: {
    type: 'object',
    required: ['lines'],
    additionalProperties: false,
    properties: {
      lines: { type: 'array', minItems: 1, maxItems: MAX_LINES, items: line('Units received, at least 1; added to on hand.') },
    },
  },
  RecordStockResult: {
    type: 'object',
    required: ['lines'],
    properties: {
      lines: { type: 'array', items: { $ref: '#/components/schemas/AdjustedStockLine' }, description: 'One entry per request line, in request order: its stock line after the batch.' },
    },
  },
  RecordCountRequest: {
    type: 'object',
    required: ['lines'],
    additionalProperties: false,
    properties: {
      lines: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_LINES,
        description: 'Each stock line (product, location, lotCode, binCode) at most once (else 400 details lines.N).',
        items: line('The counted on hand, 0 or more; on hand is set to it.', { rootCause: { ...nullableString, maxLength: 2000, description: 'Overrides the batch rootCause for this line.' } }),
      },
      reasonCodeId: { ...nullableString, description: `${reasonCodeText} Default COUNT_CORRECTION.` },
      comment: { ...nullableString, maxLength: 2000, description: 'For every ledger row without its own comment.' },
      rootCause: { ...nullableString, maxLength: 2000, description: rootCauseText },
    },
  },
  RecordCountResult: {
    type: 'object',
    required: ['lines', 'transactions', 'counted', 'changed'],
    properties: {
      lines: { type: 'array', items: { $ref: '#/components/schemas/AdjustedStockLine' }, description: 'One entry per request line, in request order.' },
      transactions: { type: 'array', items: { $ref: '#/components/schemas/LedgerEntry' }, description: 'COUNT rows written; none for a line whose count equalled its on hand.' },
      counted: { type: 'integer' },
      changed: { type: 'integer' },
    },
  },
  CountSheet: {
    type: 'object',
    required: ['locationId', 'lines', 'total', 'pagination'],
    properties: {
      locationId: { type: 'string' },
      location: { type: 'object', properties: { id: { type: 'string' }, code: { type: 'string' }, name: { type: 'string' } } },
      lines: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            inventoryItemId: { type: 'string' },
            productMasterId: { type: 'string' },
            sku: { type: 'string' },
            productName: { type: 'string' },
            lotId: nullableString,
            lotCode: nullableString,
            expiryDate: { type: ['string', 'null'], format: 'date' },
            binId: nullableString,
            binCode: nullableString,
            qtyOnHand: { type: 'integer' },
            qtyAvailable: { type: 'integer' },
          },
        },
      },
      total: { type: 'integer' },
      pagination: { type: 'object', properties: { limit: { type: 'integer' }, offset: { type: 'integer' }, hasMore: { type: 'boolean' }, total: { type: 'integer' } } },
    },
  },
};
