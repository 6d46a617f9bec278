import { builder } from '../../builder.js';
import { cycleCountResolve, VARIANCE_PAGE, varianceQuery } from '../../../contracts/inventory/cycle-counts/resolve.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { linked } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';
import { ProductType } from '../../products/product.js';
import { cycleCountVariances, type Variance } from '../../../services/inventory/cycle-counts/variances.js';
import { resolveCycleCountLines, type Resolution } from '../../../services/inventory/cycle-counts/resolve.js';

const CYCLE_COUNT = { permission: 'inventory.cyclecount' } as const;

const VarianceType = builder.objectRef<Variance>('CycleCountVariance').implement({
  description: 'A counted line whose count differs from what the system expected at the moment of the count.',
  fields: (t) => ({
    lineId: t.exposeID('lineId', { description: 'The count line (what resolveCycleCountLines takes).' }),
    batchId: t.exposeID('batchId', { description: 'Its batch.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product record.', resolve: (v, _a, ctx) => linked(ctx, 'product', v.productMasterId) }),
    sku: t.exposeString('sku', { description: "The product's SKU." }),
    productName: t.exposeString('productName', { description: "The product's name." }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'The lot (null: none).' }),
    lotCode: t.exposeString('lotCode', { nullable: true, description: 'Code of the lot.' }),
    binId: t.exposeID('binId', { nullable: true, description: 'The bin (null: none).' }),
    binCode: t.exposeString('binCode', { nullable: true, description: 'Code of the bin.' }),
    expectedQty: t.exposeInt('expectedQty', { description: 'On hand at the moment of the count: the snapshot plus every movement since.' }),
    countedQty: t.exposeInt('countedQty', { description: 'Units counted.' }),
    varianceQty: t.exposeInt('varianceQty', { description: 'countedQty - expectedQty.' }),
    unitCost: t.exposeFloat('unitCost', { nullable: true, description: "The product's unit cost (null: none known)." }),
    varianceValue: t.exposeFloat('varianceValue', { nullable: true, description: 'varianceQty × unitCost (null without a cost).' }),
    countedAt: t.expose('countedAt', { type: 'DateTime', description: 'When it was counted.' }),
  }),
});

type Page = Awaited<ReturnType<typeof cycleCountVariances>>;

const VariancePageType = builder.objectRef<Page>('CycleCountVariancePage').implement({
  description: 'One page of variances to resolve (what GET /api/inventory/cycle-count serves in mode to-resolve).',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Always to-resolve.' }),
    lines: t.field({ type: [VarianceType], description: 'Variances on this page, largest absolute value first.', resolve: (p) => p.lines }),
    count: t.exposeInt('count', { description: 'Variances in all pages.' }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    pageSize: t.exposeInt('pageSize', { description: 'Page size.' }),
    total: t.exposeInt('total', { description: 'The same as count.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
  }),
});

const ResolutionType = builder.objectRef<Resolution>('CycleCountResolution').implement({
  description: 'What resolving one line did.',
  fields: (t) => ({
    lineId: t.exposeID('lineId', { description: 'The count line.' }),
    action: t.exposeString('action', { description: 'ACCEPT or REJECT.' }),
    correctionQty: t.exposeInt('correctionQty', { nullable: true, description: 'The change written to on hand (0: the count matched; null: rejected).' }),
    stockLineId: t.exposeID('stockLineId', { nullable: true, description: 'The stock line corrected.' }),
    transactionId: t.exposeID('transactionId', { nullable: true, description: 'The COUNT_CORRECTION ledger row (null when nothing changed).' }),
  }),
});

const ResolveResultType = builder.objectRef<{ resolutions: Resolution[] }>('CycleCountResolveResult').implement({
  description: 'The outcome of resolving variances.',
  fields: (t) => ({ resolutions: t.field({ type: [ResolutionType], description: 'One per decision, in the order given.', resolve: (r) => r.resolutions }) }),
});

const ResolveInput = contractInput('CycleCountResolveInput', cycleCountResolve, {
  description: 'Accept or reject counted lines.',
  types: { 'resolutions.lineId': 'ID', 'resolutions.action': 'String', 'resolutions.reasonCodeId': 'String' },
  names: { resolutions: 'CycleCountDecisionInput' },
  descriptions: { resolutions: 'One decision on one count line.' },
});

builder.queryFields((t) => {
  const args = (paging: 'pages' | 'window') => contractArgs(t, varianceQuery, { omit: paging === 'window' ? ['page', 'limit'] : [], types: { locationId: 'ID' } });
  return {
    cycleCountVariances: t.connection(
      {
        extensions: positionCursors(VARIANCE_PAGE.max),
        type: VarianceType,
        description: 'Counted, unresolved lines of a location whose count differs from what was expected, largest absolute value first, as a Relay connection.',
        authScopes: CYCLE_COUNT,
        args: args('window'),
        resolve: (_parent, args, ctx) =>
          windowConnection(args, VARIANCE_PAGE.limit, (window) => cycleCountVariances(ctx, parseInput(varianceQuery, args), window).then((p) => ({ items: p.lines, total: p.total }))),
      },
      {
        name: 'CycleCountVarianceConnection',
        description: 'A page of variances with the cursors to fetch the next or previous page.',
        fields: (c) => ({ totalCount: c.int({ description: 'Variances to resolve.', resolve: (page) => page.totalCount }) }),
      },
    ),
    cycleCountVariancesPage: t.field({
      type: VariancePageType,
      description: "REST adapter's shape (GET /api/inventory/cycle-count, mode to-resolve): variances by page number.",
      deprecationReason: "The REST adapter's page shape (GET /api/inventory/cycle-count?mode=to-resolve); GraphQL clients use the connection `cycleCountVariances`.",
      authScopes: CYCLE_COUNT,
      args: args('pages'),
      resolve: (_parent, args, ctx) => cycleCountVariances(ctx, parseInput(varianceQuery, args)),
    }),
  };
});

builder.mutationFields((t) => ({
  resolveCycleCountLines: t.field({
    refusals: ['ValidationError', 'ConflictError', 'InsufficientStockError'],
    type: ResolveResultType,
    description:
      'Accepts variances (COUNT_CORRECTION ledger rows of countedQty - expectedQty, added to on hand as it is now, so movements since the count are kept) or ' +
      'rejects them (the count is cleared and kept in the history: count again). A line resolved already, not counted or of a CANCELLED batch: INVALID_STATE.',
    authScopes: CYCLE_COUNT,
    args: { input: t.arg({ type: ResolveInput, required: true, description: 'The decisions.' }) },
    resolve: (_parent, args, ctx) => resolveCycleCountLines(ctx, parseInput(cycleCountResolve, args.input)),
  }),
}));
