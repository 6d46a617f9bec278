import { nullableString } from '../openapi-common.js';
/** OpenAPI response schemas of the adjustment, ledger history, lot correction and record-stock routes (their inputs come from src/contracts). */

const quantities = {
  qtyOnHand: { type: 'integer', description: 'Units physically at the line.' },
  qtyAvailable: { type: 'integer', description: 'On hand minus reserved, on hold, picked, recalled and expired (never below 0).' },
  qtyOnHold: { type: 'integer' },
  qtyPicked: { type: 'integer' },
  qtyRecalled: { type: 'integer' },
  qtyExpired: { type: 'integer' },
  qtyReserved: { type: 'integer' },
};

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
  RecordStockResult: {
    type: 'object',
    required: ['lines'],
    properties: {
      lines: { type: 'array', items: { $ref: '#/components/schemas/AdjustedStockLine' }, description: 'One entry per request line, in request order: its stock line after the batch.' },
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
