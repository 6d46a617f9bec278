import { builder } from '../../builder.js';
import { blindFormQuery } from '../../../contracts/inventory/cycle-counts/blind-form-query.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import { blindForm, type SheetLine } from '../../../services/inventory/cycle-counts/blind-form.js';

const SheetLineType = builder.objectRef<SheetLine>('CycleCountSheetLine').implement({
  description: 'A line of a blind count sheet: where to look and what. It carries no quantity, by design.',
  fields: (t) => ({
    lineId: t.exposeID('lineId', { nullable: true, description: "The batch's line to record the count on (null on a location's sheet)." }),
    stockLineId: t.exposeID('stockLineId', { nullable: true, description: 'The stock line (null: a found line of the batch with no stock line).' }),
    binId: t.exposeID('binId', { nullable: true, description: 'The bin (null: none).' }),
    binCode: t.exposeString('binCode', { nullable: true, description: 'Code of the bin.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    sku: t.exposeString('sku', { description: "The product's SKU." }),
    productName: t.exposeString('productName', { description: "The product's name." }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'The lot (null: none).' }),
    lotCode: t.exposeString('lotCode', { nullable: true, description: 'Code of the lot.' }),
    expiryDate: t.expose('expiryDate', { type: 'Date', nullable: true, description: 'Expiry date of the lot.' }),
  }),
});

type Sheet = Awaited<ReturnType<typeof blindForm>>;

const SheetType = builder.objectRef<Sheet>('CycleCountSheet').implement({
  description: 'A blind count sheet: the lines to count of a batch or a location, by bin, SKU and lot, without any quantity.',
  fields: (t) => ({
    locationId: t.exposeID('locationId', { description: 'The location counted.' }),
    batchId: t.exposeID('batchId', { nullable: true, description: 'The batch (null: the whole location).' }),
    lines: t.field({ type: [SheetLineType], description: "The lines (a location's sheet: this page).", resolve: (s) => s.lines }),
    page: t.exposeInt('page', { description: 'Page number, from 1 (a batch: always 1).' }),
    pageSize: t.exposeInt('pageSize', { description: 'Page size.' }),
    total: t.exposeInt('total', { description: 'Lines in all pages.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
  }),
});

builder.queryFields((t) => ({
  cycleCountBlindForm: t.field({
    type: SheetType,
    description: 'The blind count sheet of a batch, or of every stock line of a location a page at a time (500, at most 2000): no quantity in it.',
    authScopes: { permission: 'inventory.cyclecount' },
    args: contractArgs(t, blindFormQuery, { types: { locationId: 'ID', batchId: 'ID' } }),
    resolve: (_parent, args, ctx) => blindForm(ctx, parseInput(blindFormQuery, args)),
  }),
}));
