import { PUT_AWAY_DEFAULT_LIMIT, PUT_AWAY_MAX_LIMIT, putAwayConfirm, putAwayTaskQuery } from '../../../contracts/inventory/put-away/put-away.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { builder } from '../../builder.js';
import { LocationType } from '../../master-data/location.js';
import { linked } from '../../record-loaders.js';
import { confirmPutAway, listPutAwayTasks, SUGGESTION_RULES } from '../../../services/inventory/put-away/put-away.js';
import { BinType, LotType, StockLineType } from '../stock-lines/stock-line.js';
import { ProductType } from '../../products/product.js';
import { readScopesOf } from '../../link-scopes.js';
import { positionCursors, windowConnection } from '../../window-connection.js';

const canRead = { permission: 'inventory.read' } as const;
const canWrite = { permission: 'inventory.write' } as const;

type Page = Awaited<ReturnType<typeof listPutAwayTasks>>;
type Task = Page['tasks'][number];
type Confirmation = Awaited<ReturnType<typeof confirmPutAway>>;

const RuleEnum = builder.enumType('PutAwaySuggestionRule', {
  description: 'Which rule chose the suggested bin, tried in this order.',
  values: {
    PREFERRED_BIN: { description: "The inventory level's preferred bin (preferredBinLocationId), a bin of the location." },
    SAME_LOT: { description: 'The first bin by code already holding units of the product and lot.' },
    SAME_PRODUCT: { description: 'The first bin by code already holding units of the product.' },
    EMPTY_BIN: { description: 'The first bin by code holding no units at all.' },
    NONE: { description: 'No bin to suggest: the location has no empty bin and none holds the product.' },
  } satisfies Record<(typeof SUGGESTION_RULES)[number], unknown>,
});

const TaskRef = builder.objectRef<Task>('PutAwayTask').implement({
  description: 'Stock received at a location and not yet in a bin (an un-binned stock line with units available), with a suggested bin.',
  fields: (t) => ({
    stockLineId: t.exposeID('stockLineId', { description: 'The un-binned stock line: what a confirmation names.' }),
    stockLine: t.field({ type: StockLineType, nullable: true, authScopes: readScopesOf('StockLine'), description: 'The stock line (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'stockLine', row.stockLineId) }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    sku: t.exposeString('sku', { description: 'Its SKU.' }),
    productName: t.exposeString('productName', { description: 'Its name.' }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'The lot.' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot (null when the line has none).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.lotId) }),
    lotCode: t.exposeString('lotCode', { nullable: true, description: 'Code of the lot.' }),
    expiryDate: t.expose('expiryDate', { type: 'Date', nullable: true, description: 'Expiry date of the lot.' }),
    qtyOnHand: t.exposeInt('qtyOnHand', { description: 'Units on hand on the line.' }),
    qtyToPutAway: t.exposeInt('qtyToPutAway', { description: 'Units available to move into a bin (on hand minus reserved, held, picked, recalled, expired).' }),
    suggestedBinId: t.exposeID('suggestedBinId', { nullable: true, description: 'The suggested bin (null when there is none: rule NONE).' }),
    suggestedBin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The suggested bin.', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.suggestedBinId) }),
    suggestedBinCode: t.exposeString('suggestedBinCode', { nullable: true, description: 'Code of the suggested bin.' }),
    suggestionRule: t.field({ type: RuleEnum, description: 'Which rule chose the suggested bin.', resolve: (row) => row.suggestionRule }),
  }),
});

const PageRef = builder.objectRef<Page>('PutAwayTaskPage').implement({
  description: 'One page of put-away tasks.',
  fields: (t) => ({
    tasks: t.field({ type: [TaskRef], description: 'Tasks on this page.', resolve: (p) => p.tasks }),
    total: t.exposeInt('total', { description: 'Tasks matching the filters in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Tasks skipped before this page.' }),
  }),
});

const ConfirmedLineRef = builder.objectRef<Confirmation['lines'][number]>('PutAwayConfirmedLine').implement({
  description: 'Units moved from an un-binned stock line into a bin.',
  fields: (t) => ({
    stockLineId: t.exposeID('stockLineId', { description: 'The un-binned stock line the units left.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'The lot.' }),
    binId: t.exposeID('binId', { description: 'The bin the units went to.' }),
    bin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The bin the units went to (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.binId) }),
    quantity: t.exposeInt('quantity', { description: 'Units moved.' }),
    toStockLineId: t.exposeID('toStockLineId', { description: 'The stock line in the bin that received them.' }),
    toStockLine: t.field({ type: StockLineType, nullable: true, authScopes: readScopesOf('StockLine'), description: 'The stock line in the bin (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'stockLine', row.toStockLineId) }),
  }),
});

const ConfirmationRef = builder.objectRef<Confirmation>('PutAwayConfirmation').implement({
  description: 'A confirmed put-away: PUT_AWAY ledger rows out of the un-binned lines and into the bins, sourceId putAwayId.',
  fields: (t) => ({
    putAwayId: t.exposeID('putAwayId', { description: 'The put-away: sourceId of its ledger rows.' }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    lines: t.field({ type: [ConfirmedLineRef], description: 'The moves, in the order asked.', resolve: (c) => c.lines }),
  }),
});

const ConfirmInput = contractInput('PutAwayConfirmInput', putAwayConfirm, {
  description: 'Moves of units from un-binned stock lines into bins of the location, all or nothing.',
  names: { lines: 'PutAwayLineInput' },
  descriptions: { lines: 'Units of one un-binned stock line and the bin they go to.' },
});

builder.queryFields((t) => ({
  putAwayTasks: t.connection(
    {
      type: TaskRef,
      description: "Stock at a location not yet in a bin, each with a suggested bin, by SKU then lot expiry, as a Relay connection (NOT_FOUND for a location or filter id that is not the organization's).",
      authScopes: canRead,
      extensions: positionCursors(PUT_AWAY_MAX_LIMIT),
      args: contractArgs(t, putAwayTaskQuery, { omit: ['limit', 'offset'] }),
      resolve: (_parent, args, ctx) =>
        windowConnection(args, PUT_AWAY_DEFAULT_LIMIT, (window) => listPutAwayTasks(ctx, parseInput(putAwayTaskQuery, args), window).then((page) => ({ items: page.tasks, total: page.total }))),
    },
    {
      name: 'PutAwayTaskConnection',
      description: 'A page of put-away tasks with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Tasks matching the filters, in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  putAwayTasksPage: t.field({
    type: PageRef,
    description: "REST adapter's shape (GET /api/inventory/put-away): a page of put-away tasks by limit and offset.",
    deprecationReason: "The REST adapter's page shape (GET /api/inventory/put-away); GraphQL clients use the connection `putAwayTasks`.",
    authScopes: canRead,
    args: contractArgs(t, putAwayTaskQuery),
    resolve: (_parent, args, ctx) => listPutAwayTasks(ctx, parseInput(putAwayTaskQuery, args)),
  }),
}));

builder.mutationFields((t) => ({
  confirmPutAway: t.field({
    refusals: ['ValidationError', 'InsufficientStockError'],
    type: ConfirmationRef,
    description: 'Moves units of un-binned stock lines into bins of the location through the ledger (PUT_AWAY out and in), all or nothing; INSUFFICIENT_STOCK naming lines.N.quantity when a line lacks them.',
    authScopes: canWrite,
    args: { input: t.arg({ type: ConfirmInput, required: true, description: 'The put-away.' }) },
    resolve: (_parent, args, ctx) => confirmPutAway(ctx, parseInput(putAwayConfirm, args.input)),
  }),
}));
