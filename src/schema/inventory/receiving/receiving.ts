import type { InputFieldBuilder } from '@pothos/core';
import { builder } from '../../builder.js';
import type { LineState } from '../../../services/inventory/ledger/stock-ledger.js';
import { ledgerRows } from '../../../services/inventory/history/ledger-history.js';
import { countSheet, countSheetLines, recordCount, recordStock } from '../../../services/inventory/receiving/receiving.js';
import { MAX_LINES } from '../../../contracts/inventory/receiving/stock-batch.js';
import type { StockTransaction } from '../../../generated/prisma/client.js';
import { StockLineStateType } from '../adjustments/adjustments.js';
import { StockLineType } from '../stock-lines/stock-line.js';
import { positionCursors, windowConnection } from '../../window-connection.js';

const lineFields = (t: InputFieldBuilder<typeof builder.$inferSchemaTypes, 'InputObject'>, quantity: string) => ({
  productMasterId: t.id({ required: true, description: 'Product (of the organization).' }),
  locationId: t.id({ required: true, description: 'Location (of the organization).' }),
  quantity: t.int({ required: true, description: quantity }),
  lotCode: t.string({ description: 'Lot code; the lot is created for the product when missing.' }),
  expiryDate: t.field({ type: 'Date', description: 'Expiry date of the lot (only with lotCode); a new lot gets it, an existing lot must already have it.' }),
  binCode: t.string({ description: 'Bin code at the location; the bin is created when missing.' }),
  comment: t.string({ description: 'Free text for the ledger row, up to 2000 characters.' }),
});

const RecordStockLineInput = builder.inputType('RecordStockLineInput', {
  description: 'Units received onto one stock line.',
  fields: (t) => lineFields(t, 'Units received (at least 1); added to on hand.'),
});

const RecordStockInput = builder.inputType('RecordStockInput', {
  description: `Received stock, 1 to ${MAX_LINES} lines, recorded all or nothing.`,
  fields: (t) => ({ lines: t.field({ type: [RecordStockLineInput], required: true, description: 'The received lines.' }) }),
});

const RecordCountLineInput = builder.inputType('RecordCountLineInput', {
  description: 'The counted on hand of one stock line.',
  fields: (t) => ({
    ...lineFields(t, 'Counted on hand (0 or more); on hand is set to it.'),
    rootCause: t.string({ description: 'Root cause for this line (overrides the batch rootCause).' }),
  }),
});

const RecordCountInput = builder.inputType('RecordCountInput', {
  description: `Counted stock, 1 to ${MAX_LINES} lines (each stock line at most once), recorded all or nothing.`,
  fields: (t) => ({
    lines: t.field({ type: [RecordCountLineInput], required: true, description: 'The counted lines.' }),
    reasonCodeId: t.string({ description: 'Reason code id or code for every COUNT ledger row (default COUNT_CORRECTION).' }),
    comment: t.string({ description: 'Free text for every ledger row without its own comment.' }),
    rootCause: t.string({ description: "Root cause, required in healthcare organizations for a line whose on hand drops by the organization's largeAdjustmentThreshold or more." }),
  }),
});

const RecordStockResult = builder.objectRef<{ lines: LineState[] }>('RecordStockResult').implement({
  description: 'Stock lines after a receipt batch.',
  fields: (t) => ({
    lines: t.field({ type: [StockLineStateType], description: 'One entry per request line, in request order: its stock line after the batch.', resolve: (r) => r.lines }),
  }),
});

type CountResult = { lines: LineState[]; transactions: StockTransaction[]; counted: number; changed: number };

const RecordCountResult = builder.objectRef<CountResult>('RecordCountResult').implement({
  description: 'Stock lines after a count batch, with the COUNT ledger rows written.',
  fields: (t) => ({
    lines: t.field({ type: [StockLineStateType], description: 'One entry per request line, in request order: its stock line after the batch.', resolve: (r) => r.lines }),
    transactions: t.prismaField({
      type: ['StockTransaction'],
      description: 'The COUNT ledger rows, in request order; none for a line whose count equalled its on hand.',
      resolve: (query, r, _args, ctx) => ledgerRows(ctx, r.transactions.map((row) => row.id), query),
    }),
    counted: t.exposeInt('counted', { description: 'Lines counted.' }),
    changed: t.exposeInt('changed', { description: 'Lines whose on hand changed.' }),
  }),
});

type Sheet = Awaited<ReturnType<typeof countSheet>>;

const CountSheet = builder.objectRef<Sheet>('CountSheet').implement({
  description: 'The stock lines at a location with their on hand, by SKU, lot and bin, for counting.',
  fields: (t) => ({
    locationId: t.exposeID('locationId', { description: 'The location counted.' }),
    location: t.prismaField({
      type: 'Location',
      description: 'The location counted.',
      resolve: (query, sheet, _args, ctx) => ctx.prisma.location.findUniqueOrThrow({ ...query, where: { id: sheet.locationId } }),
    }),
    lines: t.prismaField({
      type: ['StockLine'],
      description: 'Stock lines on this page, by SKU, lot code and bin code.',
      resolve: (query, sheet, _args, ctx) => countSheetLines(ctx, sheet, query),
    }),
    total: t.exposeInt('total', { description: 'Lines at the location (matching productMasterId) in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Lines skipped before this page.' }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More lines follow this page.' }),
  }),
});

const COUNT_SHEET_PAGE = { limit: 500, max: 1000 };

builder.queryFields((t) => ({
  countSheet: t.connection(
    {
      type: StockLineType,
      description: `A count sheet as a Relay connection: the stock lines at a location with their on hand, by SKU, lot code and bin code; at most ${COUNT_SHEET_PAGE.max} a page.`,
      authScopes: { permission: 'inventory.adjust' },
      extensions: positionCursors(COUNT_SHEET_PAGE.max),
      args: {
        locationId: t.arg.id({ required: true, description: 'The location to count (NOT_FOUND when it is not the organization\'s).' }),
        productMasterId: t.arg.id({ description: 'Only lines of this product (NOT_FOUND when it is not the organization\'s).' }),
      },
      resolve: (_parent, args, ctx) =>
        windowConnection(args, COUNT_SHEET_PAGE.limit, async (window) => {
          const sheet = await countSheet(ctx, { locationId: String(args.locationId), productMasterId: args.productMasterId?.toString() }, window);
          return { items: window.take ? await countSheetLines(ctx, sheet, {}) : [], total: sheet.total, locationId: sheet.locationId };
        }),
    },
    {
      name: 'CountSheetConnection',
      description: 'A page of a count sheet (stock lines at a location with their on hand), with the location and the cursors to fetch the next or previous page.',
      fields: (c) => ({
        totalCount: c.int({ description: 'Lines at the location (matching productMasterId) in all pages.', resolve: (page) => page.totalCount }),
        locationId: c.id({ description: 'The location counted.', resolve: (page) => page.locationId }),
        location: c.prismaField({
          type: 'Location',
          description: 'The location counted.',
          resolve: (query, page, _args, ctx) => ctx.prisma.location.findUniqueOrThrow({ ...query, where: { id: page.locationId } }),
        }),
      }),
    },
  ),
  countSheetPage: t.field({
    type: CountSheet,
    description: "REST adapter's shape (GET /api/inventory/adjustments/record-stock): a count sheet by limit and offset.",
    deprecationReason: "The REST adapter's page shape (GET /api/inventory/adjustments/record-stock); GraphQL clients use the connection `countSheet`.",
    authScopes: { permission: 'inventory.adjust' },
    args: {
      locationId: t.arg.id({ description: 'The location to count (required).' }),
      productMasterId: t.arg.id({ description: 'Only lines of this product.' }),
      limit: t.arg.int({ description: `Page size, 1 to ${COUNT_SHEET_PAGE.max} (default ${COUNT_SHEET_PAGE.limit}).` }),
      offset: t.arg.int({ description: 'Lines to skip (default 0).' }),
    },
    resolve: (_parent, args, ctx) => countSheet(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  recordStock: t.field({
    refusals: ['ValidationError'],
    type: RecordStockResult,
    description: 'Records received stock: adds each quantity to its stock line (RECEIPT), creating lots, bins and lines as needed.',
    authScopes: { permission: 'inventory.write' },
    args: { input: t.arg({ type: RecordStockInput, required: true, description: 'The received lines.' }) },
    resolve: (_parent, args, ctx) => recordStock(ctx, args.input),
  }),
  recordCount: t.field({
    refusals: ['ValidationError', 'InsufficientStockError'],
    type: RecordCountResult,
    description: 'Records counted stock: sets each stock line\'s on hand to the counted quantity (COUNT), creating lots, bins and lines as needed.',
    authScopes: { permission: 'inventory.adjust' },
    args: { input: t.arg({ type: RecordCountInput, required: true, description: 'The counted lines.' }) },
    resolve: (_parent, args, ctx) => recordCount(ctx, args.input),
  }),
}));
