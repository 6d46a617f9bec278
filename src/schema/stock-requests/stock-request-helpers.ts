import { stockRequestProductSearchQuery, stockRequestStocklistQuery } from '../../contracts/stock-requests/stock-request-products.js';
import {
  STOCK_REQUESTS_DEFAULT_LIMIT,
  STOCK_REQUESTS_MAX_LIMIT,
  stockRequestCategoryQuery,
  stockRequestDashboardQuery,
  stockRequestPendingQuery,
} from '../../contracts/stock-requests/stock-request-queries.js';
import { pendingApprovals } from '../../services/stock-requests/stock-request-pending.js';
import { type RequestableProduct, requestingStocklist, searchRequestableProducts, type StocklistItem } from '../../services/stock-requests/stock-request-products.js';
import {
  type CategoryQuantities,
  type StockRequestDashboard,
  stockRequestDashboard,
  type StockRequestFilterValues,
  stockRequestFilterValues,
  stockRequestsByCategory,
} from '../../services/stock-requests/stock-request-reports.js';
import { builder } from '../builder.js';
import { contractArgs, parseInput } from '../contract-input.js';
import { readScopesOf } from '../link-scopes.js';
import { LocationType } from '../master-data/location.js';
import { ActionEnum } from '../planning/recommendations/planning-recommendations.js';
import { ProductType } from '../products/product.js';
import { linked } from '../record-loaders.js';
import { positionCursors, windowConnection } from '../window-connection.js';
import { StockRequestPriorityEnum, StockRequestRef, StockRequestStatusEnum } from './stock-request-types.js';

const canRead = { permission: 'stockrequests.read' } as const;
const canApprove = { permission: 'stockrequests.approve' } as const;
const canSearchProducts = { $all: { permission: 'stockrequests.read', $all: { permission: 'products.read' } } } as const;

const CategoryRowRef = builder.objectRef<CategoryQuantities>('StockRequestCategoryQuantities').implement({
  description: 'Units asked for, approved and fulfilled in one product category over the matching stock requests.',
  fields: (t) => ({
    categoryId: t.exposeID('categoryId', { nullable: true, description: 'The category (null: products without one, or deleted since).' }),
    categoryName: t.exposeString('categoryName', { nullable: true, description: "The category's name (null with categoryId)." }),
    requestCount: t.exposeInt('requestCount', { description: 'Requests with at least one line in the category.' }),
    lineCount: t.exposeInt('lineCount', { description: 'Lines in the category.' }),
    quantityRequested: t.expose('quantityRequested', { type: 'BigQuantity', description: 'Units requested.' }),
    quantityApproved: t.expose('quantityApproved', { type: 'BigQuantity', description: 'Units approved (lines without an approved quantity count 0).' }),
    quantityFulfilled: t.expose('quantityFulfilled', { type: 'BigQuantity', description: 'Units fulfilled (0 until fulfilment is served).' }),
  }),
});

const StatusCountRef = builder.objectRef<StockRequestDashboard['byStatus'][number]>('StockRequestStatusCount').implement({
  description: 'How many stock requests are in one state.',
  fields: (t) => ({
    status: t.field({ type: StockRequestStatusEnum, description: 'The state.', resolve: (row) => row.status }),
    count: t.exposeInt('count', { description: 'Requests in it.' }),
  }),
});

const DashboardRef = builder.objectRef<StockRequestDashboard>('StockRequestDashboard').implement({
  description: 'Stock requests at a glance: counts by state, overdue, and median approval and fulfilment times.',
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'Requests matching the filters.' }),
    byStatus: t.field({ type: [StatusCountRef], description: 'Requests per state, every state listed (0 included), in workflow order.', resolve: (d) => d.byStatus }),
    overdue: t.exposeInt('overdue', { description: 'Requests whose neededBy is before today (UTC) and that are not REJECTED, FULFILLED or CANCELLED.' }),
    approvedCount: t.exposeInt('approvedCount', { description: 'Requests with a submission and an approval time (the median is over these).' }),
    medianApprovalHours: t.exposeFloat('medianApprovalHours', { nullable: true, description: 'Median hours from submission to approval (two decimals); null when none was approved.' }),
    fulfilledCount: t.exposeInt('fulfilledCount', { description: 'Requests moved to FULFILLED after an approval (the median is over these).' }),
    medianFulfilmentHours: t.exposeFloat('medianFulfilmentHours', {
      nullable: true,
      description: 'Median hours from approval to the first move to FULFILLED in the history (two decimals); null when none was fulfilled.',
    }),
  }),
});

const RequesterRef = builder.objectRef<StockRequestFilterValues['requesters'][number]>('StockRequestRequester').implement({
  description: 'A user or API key that created stock requests of the organization.',
  fields: (t) => ({
    requesterType: t.exposeString('requesterType', { description: 'USER or API_KEY.' }),
    requesterId: t.exposeID('requesterId', { description: 'The id of the user or API key (the value of the requesterId filter).' }),
    name: t.exposeString('name', { nullable: true, description: 'Its name (null when it has none or was deleted).' }),
  }),
});

/** The caller's locations of these ids (one batched read), in the order given. */
const locationsOf = async (ctx: Parameters<typeof linked>[0], ids: string[]) => (await Promise.all(ids.map((id) => linked(ctx, 'location', id)))).filter((l) => l !== null);

const FilterValuesRef = builder.objectRef<StockRequestFilterValues>('StockRequestFilterValues').implement({
  description: "The values each filter of the stock-request list can take in the organization (at most 500 of each list).",
  fields: (t) => ({
    statuses: t.field({ type: [StockRequestStatusEnum], description: 'Every state.', resolve: (v) => [...v.statuses] }),
    priorities: t.field({ type: [StockRequestPriorityEnum], description: 'Every priority.', resolve: (v) => [...v.priorities] }),
    requestingLocations: t.field({
      type: [LocationType],
      authScopes: readScopesOf('Location'),
      description: 'Locations that made requests, by code.',
      resolve: (v, _args, ctx) => locationsOf(ctx, v.requestingLocationIds),
    }),
    supplyingLocations: t.field({
      type: [LocationType],
      authScopes: readScopesOf('Location'),
      description: 'Locations asked by requests, by code.',
      resolve: (v, _args, ctx) => locationsOf(ctx, v.supplyingLocationIds),
    }),
    requesters: t.field({ type: [RequesterRef], description: 'Users and API keys that created requests, by name.', resolve: (v) => v.requesters }),
  }),
});

const AVAILABLE = 'Units available at the requesting location: on hand less reserved, held, picked, recalled and expired (lots past expiry or recalled left out).';

const RequestableProductRef = builder.objectRef<RequestableProduct>('StockRequestableProduct').implement({
  description: 'A product a location may ask for, with its stock at the requesting and the supplying location.',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product.', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    sku: t.exposeString('sku', { description: 'Its SKU.' }),
    name: t.exposeString('name', { description: 'Its name.' }),
    categoryId: t.exposeID('categoryId', { nullable: true, description: 'Its category (null: none).' }),
    requestingOnHand: t.expose('requestingOnHand', { type: 'BigQuantity', description: 'Units on hand at the requesting location.' }),
    requestingAvailable: t.expose('requestingAvailable', { type: 'BigQuantity', description: AVAILABLE }),
    supplyingOnHand: t.expose('supplyingOnHand', { type: 'BigQuantity', nullable: true, description: 'Units on hand at the supplying location (null when none was named).' }),
    supplyingAvailable: t.expose('supplyingAvailable', { type: 'BigQuantity', nullable: true, description: 'Units available at the supplying location (null when none was named).' }),
  }),
});

type Search = Awaited<ReturnType<typeof searchRequestableProducts>>;
const ProductSearchRef = builder.objectRef<Search>('StockRequestProductSearch').implement({
  description: 'A page of the products a location may ask for, by SKU.',
  fields: (t) => ({
    requestingLocationId: t.exposeID('requestingLocationId', { description: 'The location that would ask.' }),
    supplyingLocationId: t.exposeID('supplyingLocationId', { description: 'The location that would be asked.' }),
    products: t.field({ type: [RequestableProductRef], description: 'Products on this page, by SKU.', resolve: (s) => s.products }),
    total: t.exposeInt('total', { description: 'Products matching, in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Products skipped before this page.' }),
  }),
});

const StocklistItemRef = builder.objectRef<StocklistItem>('StockRequestStocklistItem').implement({
  description: "A product of a location's usual list: its levels and stock there, and the quantity to ask for.",
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product.', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    sku: t.exposeString('sku', { description: 'Its SKU.' }),
    name: t.exposeString('name', { description: 'Its name.' }),
    minQuantity: t.exposeInt('minQuantity', { description: "The level's minimum at the requesting location." }),
    reorderQuantity: t.exposeInt('reorderQuantity', { description: "The level's reorder point there." }),
    maxQuantity: t.exposeInt('maxQuantity', { description: "The level's maximum there (0: none)." }),
    requestingOnHand: t.expose('requestingOnHand', { type: 'BigQuantity', description: 'Units on hand at the requesting location.' }),
    requestingAvailable: t.expose('requestingAvailable', { type: 'BigQuantity', description: AVAILABLE }),
    supplyingOnHand: t.expose('supplyingOnHand', { type: 'BigQuantity', nullable: true, description: 'Units on hand at the supplying location (null when none was named).' }),
    supplyingAvailable: t.expose('supplyingAvailable', { type: 'BigQuantity', nullable: true, description: 'Units available at the supplying location (null when none was named).' }),
    suggestedQuantity: t.exposeInt('suggestedQuantity', {
      description:
        "Units to ask for: what brings the projected stock back to the level's target (its maximum when it has one) on arrival, from the planning recommendation; 0 when the projection stays above the reorder point.",
    }),
    action: t.field({ type: ActionEnum, nullable: true, description: 'The planning recommendation behind the suggestion (null: none).', resolve: (row) => row.action }),
    needBy: t.field({ type: 'Date', nullable: true, description: 'When the projection goes below the reorder point (null: not within the horizon).', resolve: (row) => row.needBy }),
    reason: t.exposeString('reason', { nullable: true, description: "The recommendation's reason, in words." }),
  }),
});

type Stocklist = Awaited<ReturnType<typeof requestingStocklist>>;
const StocklistRef = builder.objectRef<Stocklist>('StockRequestStocklist').implement({
  description: "A page of a location's usual list (the products with an inventory level there), by SKU.",
  fields: (t) => ({
    requestingLocationId: t.exposeID('requestingLocationId', { description: 'The location whose list it is.' }),
    supplyingLocationId: t.exposeID('supplyingLocationId', { nullable: true, description: 'The location whose stock is shown too (null: none named).' }),
    items: t.field({ type: [StocklistItemRef], description: 'Products on this page, by SKU.', resolve: (s) => s.items }),
    total: t.exposeInt('total', { description: 'Products on the list, in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Products skipped before this page.' }),
  }),
});

type Pending = Awaited<ReturnType<typeof pendingApprovals>>;
const PendingPageRef = builder.objectRef<Pending>('StockRequestPendingPage').implement({
  description: 'One page of the stock requests waiting for the caller to approve them.',
  fields: (t) => ({
    requests: t.field({ type: [StockRequestRef], description: 'Requests on this page, most urgent first, then the longest waiting.', resolve: (p) => p.requests }),
    total: t.exposeInt('total', { description: 'Requests waiting, in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Requests skipped before this page.' }),
  }),
});

const PENDING =
  "SUBMITTED requests the caller may approve: everyone's for a tenant administrator, else those of other requesters; most urgent first, then the longest waiting " +
  "(NOT_FOUND for a filter location that is not the organization's).";

builder.queryFields((t) => ({
  stockRequestsByCategory: t.field({
    type: [CategoryRowRef],
    description: "Units requested, approved and fulfilled by product category over the stock requests matching the list's filters, by category name (at most 1000 categories).",
    authScopes: canRead,
    args: contractArgs(t, stockRequestCategoryQuery),
    resolve: (_parent, args, ctx) => stockRequestsByCategory(ctx, parseInput(stockRequestCategoryQuery, args)),
  }),
  stockRequestDashboard: t.field({
    type: DashboardRef,
    description: 'Counts of stock requests by state, overdue ones, and median approval and fulfilment times, for a location and a creation-date window if given.',
    authScopes: canRead,
    args: contractArgs(t, stockRequestDashboardQuery),
    resolve: (_parent, args, ctx) => stockRequestDashboard(ctx, parseInput(stockRequestDashboardQuery, args)),
  }),
  stockRequestFilterValues: t.field({
    type: FilterValuesRef,
    description: 'The values each filter of stockRequests can take in the organization: states, priorities, and the locations and requesters its requests name.',
    authScopes: canRead,
    resolve: (_parent, _args, ctx) => stockRequestFilterValues(ctx),
  }),
  stockRequestsPendingApproval: t.connection(
    {
      type: StockRequestRef,
      description: `${PENDING} A Relay connection.`,
      authScopes: canApprove,
      extensions: positionCursors(STOCK_REQUESTS_MAX_LIMIT),
      args: contractArgs(t, stockRequestPendingQuery, { omit: ['limit', 'offset'] }),
      resolve: (_parent, args, ctx) =>
        windowConnection(args, STOCK_REQUESTS_DEFAULT_LIMIT, (window) =>
          pendingApprovals(ctx, parseInput(stockRequestPendingQuery, args), window).then((page) => ({ items: page.requests, total: page.total })),
        ),
    },
    {
      name: 'StockRequestPendingConnection',
      description: 'A page of stock requests waiting for approval with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Requests waiting, in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  stockRequestsPendingApprovalPage: t.field({
    type: PendingPageRef,
    description: `REST adapter's shape (GET /api/stock-requests/pending-approvals): ${PENDING}`,
    deprecationReason: "The REST adapter's page shape (GET /api/stock-requests/pending-approvals); GraphQL clients use the connection `stockRequestsPendingApproval`.",
    authScopes: canApprove,
    args: contractArgs(t, stockRequestPendingQuery),
    resolve: (_parent, args, ctx) => pendingApprovals(ctx, parseInput(stockRequestPendingQuery, args)),
  }),
  stockRequestProductSearch: t.field({
    type: ProductSearchRef,
    description:
      "Products a location may ask for (every product of the organization), by SKU, with their stock at the requesting and the supplying location; needs stockrequests.read and products.read (NOT_FOUND for a location that is not the organization's).",
    authScopes: canSearchProducts,
    args: contractArgs(t, stockRequestProductSearchQuery),
    resolve: (_parent, args, ctx) => searchRequestableProducts(ctx, parseInput(stockRequestProductSearchQuery, args)),
  }),
  stockRequestStocklist: t.field({
    type: StocklistRef,
    description:
      "A location's usual list: the products with an inventory level there, their stock, and a suggested quantity from the planning recommendations (NOT_FOUND for a location that is not the organization's).",
    authScopes: canRead,
    args: contractArgs(t, stockRequestStocklistQuery),
    resolve: (_parent, args, ctx) => requestingStocklist(ctx, parseInput(stockRequestStocklistQuery, args)),
  }),
}));
