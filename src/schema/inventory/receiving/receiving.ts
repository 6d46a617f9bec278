import { builder } from '../../builder.js';
import type { LineState } from '../../../services/inventory/ledger/stock-ledger.js';
import { ledgerRows } from '../../../services/inventory/history/ledger-history.js';
import { countSheet, countSheetLines, recordCount, recordStock } from '../../../services/inventory/receiving/receiving.js';
import { MAX_LINES, recordCountBody, recordStockBody } from '../../../contracts/inventory/receiving/stock-batch.js';
import { contractInput, parseInput } from '../../contract-input.js';
import type { StockTransaction } from '../../../generated/prisma/client.js';
import { StockLineStateType } from '../adjustments/adjustments.js';
import { StockLineType } from '../stock-lines/stock-line.js';
import { positionCursors, windowConnection } from '../../window-connection.js';

const RecordStockInput = contractInput('RecordStockInput', recordStockBody, {
  description: `Received stock, 1 to ${MAX_LINES} lines, recorded all or nothing.`,
  names: { lines: 'RecordStockLineInput' },
  descriptions: { lines: 'Units received onto one stock line.' },
});

const RecordCountInput = contractInput('RecordCountInput', recordCountBody, {
  description: `Counted stock, 1 to ${MAX_LINES} lines (each stock line at most once), recorded all or nothing.`,
  types: { reasonCodeId: 'String' },
  names: { lines: 'RecordCountLineInput' },
  descriptions: { lines: 'The counted on hand of one stock line.' },
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
    resolve: (_parent, args, ctx) => recordStock(ctx, parseInput(recordStockBody, args.input)),
  }),
  recordCount: t.field({
    refusals: ['ValidationError', 'InsufficientStockError'],
    type: RecordCountResult,
    description: 'Records counted stock: sets each stock line\'s on hand to the counted quantity (COUNT), creating lots, bins and lines as needed.',
    authScopes: { permission: 'inventory.adjust' },
    args: { input: t.arg({ type: RecordCountInput, required: true, description: 'The counted lines.' }) },
    resolve: (_parent, args, ctx) => recordCount(ctx, parseInput(recordCountBody, args.input)),
  }),
}));
