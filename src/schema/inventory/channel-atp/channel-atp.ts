import { builder } from '../../builder.js';
import { LocationType } from '../../master-data/location.js';
import { linked, ownRecord } from '../../record-loaders.js';
import { AllocationModeEnum, AllocationPolicyType } from './allocation-policies.js';
import { CHANNEL_ATP_PAGE } from '../../../contracts/inventory/channel-atp/channel-atp-queries.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { channelLocationAtp, channelLocationDrilldown, channelSummary, type ChannelSummaryEntry } from '../../../services/inventory/channel-atp/channel-atp.js';
import type { ChannelAtpEntry, ChannelColumn, ProductAtp } from '../../../services/inventory/channel-atp/channel-atp-rule.js';
import { BinType, LotType, StockLineType } from '../stock-lines/stock-line.js';
import { ChannelType } from '../../master-data/channel.js';
import { ProductType } from '../../products/product.js';
import { readScopesOf } from '../../link-scopes.js';

type Page = Awaited<ReturnType<typeof channelLocationAtp>>;
type Drilldown = Awaited<ReturnType<typeof channelLocationDrilldown>>;
type DrilldownLine = Drilldown['stockLines'][number];

const RULE =
  'available = on hand minus reserved, on hold, picked, recalled and expired, summed over the stock lines at the location whose lot is ' +
  'neither expired nor recalled. ATP: SHARE gives floor(available × sharePct), FIXED gives min(fixedQuantity, available), no policy ' +
  'gives available. Severity: CRITICAL when ATP <= 0, LOW when ATP < the threshold, else OK.';

const SeverityEnum = builder.enumType('AtpSeverity', {
  description: 'How close a channel\'s ATP is to running out.',
  values: {
    OK: { description: 'ATP is at or above the low-ATP threshold.' },
    LOW: { description: 'ATP is above 0 and below the low-ATP threshold.' },
    CRITICAL: { description: 'ATP is 0 or less.' },
  } as const,
});

const ChannelAtpChannel = builder.objectRef<ChannelColumn>('ChannelAtpChannel').implement({
  description: 'A channel evaluated at the location, with its allocation policy there (if any).',
  fields: (t) => ({
    channelId: t.exposeID('channelId', { description: 'Channel id.' }),
    channel: t.field({ type: ChannelType, nullable: true, authScopes: readScopesOf('Channel'), description: 'The channel (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'channel', row.channelId) }),
    channelName: t.exposeString('channelName', { description: 'Channel name.' }),
    channelType: t.exposeString('channelType', { description: 'Kind of channel.' }),
    policyId: t.exposeID('policyId', { nullable: true, description: 'Allocation policy at the location; null: the channel may promise all available stock.' }),
    policy: t.field({ type: AllocationPolicyType, nullable: true, authScopes: readScopesOf('AllocationPolicy'), description: 'The allocation policy at the location (null without one).', resolve: (row, _args, ctx) => linked(ctx, 'allocationPolicy', row.policyId) }),
    mode: t.field({ type: AllocationModeEnum, nullable: true, description: 'Mode of the policy.', resolve: (c) => c.mode }),
    sharePct: t.exposeFloat('sharePct', { nullable: true, description: 'With SHARE: the fraction of available stock.' }),
    fixedQuantity: t.exposeInt('fixedQuantity', { nullable: true, description: 'With FIXED: the quantity.' }),
    lowAtpThreshold: t.exposeInt('lowAtpThreshold', { description: 'Low-ATP threshold of the policy (0 without a policy).' }),
  }),
});

const ChannelAtpEntryRef = builder.objectRef<ChannelAtpEntry>('ChannelAtpEntry').implement({
  description: `What one channel may promise of one product at the location. ${RULE}`,
  fields: (t) => ({
    channelId: t.exposeID('channelId', { description: 'Channel id.' }),
    channel: t.field({ type: ChannelType, nullable: true, authScopes: readScopesOf('Channel'), description: 'The channel (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'channel', row.channelId) }),
    channelName: t.exposeString('channelName', { description: 'Channel name.' }),
    atp: t.expose('atp', { type: 'BigQuantity', description: 'Available to promise for the channel.' }),
    onHand: t.expose('onHand', { type: 'BigQuantity', description: 'Units on hand at the location (all lines).' }),
    reserved: t.expose('reserved', { type: 'BigQuantity', description: 'Units reserved at the location (all lines).' }),
    available: t.expose('available', { type: 'BigQuantity', description: 'Units available at the location (usable lots only).' }),
    severity: t.field({ type: SeverityEnum, description: 'OK, LOW or CRITICAL.', resolve: (e) => e.severity }),
    threshold: t.exposeInt('threshold', { nullable: true, description: 'Low-ATP threshold of the policy; null without a policy.' }),
    policyId: t.exposeID('policyId', { nullable: true, description: 'The policy applied; null without a policy.' }),
    policy: t.field({ type: AllocationPolicyType, nullable: true, authScopes: readScopesOf('AllocationPolicy'), description: 'The allocation policy applied (null without one).', resolve: (row, _args, ctx) => linked(ctx, 'allocationPolicy', row.policyId) }),
  }),
});

const ChannelAtpProduct = builder.objectRef<ProductAtp>('ChannelAtpProduct').implement({
  description: 'One product at the location with the ATP of each channel.',
  fields: (t) => ({
    productMasterId: t.exposeID('productMasterId', { description: 'Product id.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    productName: t.exposeString('productName', { description: 'Product name.' }),
    globalSku: t.exposeString('globalSku', { description: 'Product SKU.' }),
    categoryName: t.exposeString('categoryName', { nullable: true, description: 'Category name, if any.' }),
    channels: t.field({ type: [ChannelAtpEntryRef], description: 'One entry per channel shown.', resolve: (p) => p.channels }),
    totalOnHand: t.expose('totalOnHand', { type: 'BigQuantity', description: 'Units on hand at the location.' }),
    totalReserved: t.expose('totalReserved', { type: 'BigQuantity', description: 'Units reserved at the location.' }),
    totalAvailable: t.expose('totalAvailable', { type: 'BigQuantity', description: 'Units available at the location (usable lots only).' }),
    minAtp: t.expose('minAtp', { type: 'BigQuantity', description: 'Lowest channel ATP (0 when no channel is shown).' }),
    maxAtp: t.expose('maxAtp', { type: 'BigQuantity', description: 'Highest channel ATP (0 when no channel is shown).' }),
    hasCritical: t.exposeBoolean('hasCritical', { description: 'Some channel is CRITICAL.' }),
  }),
});

const ChannelLocationPagination = builder.objectRef<Page['pagination']>('ChannelLocationPagination').implement({
  description: 'Paging of a channel-location page.',
  fields: (t) => ({
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    pageSize: t.exposeInt('pageSize', { description: 'Page size (the limit).' }),
    total: t.exposeInt('total', { description: 'Products matching in all pages.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Number of pages.' }),
  }),
});

const ChannelLocationAtp = builder.objectRef<Page>('ChannelLocationAtp').implement({
  description: `Channel ATP of the products stocked at one location (products with a stock line there), in SKU order. ${RULE}`,
  fields: (t) => ({
    products: t.field({ type: [ChannelAtpProduct], description: 'Products on this page.', resolve: (p) => p.products }),
    channels: t.field({ type: [ChannelAtpChannel], description: 'Channels shown, in name order.', resolve: (p) => p.channels }),
    // The page read the whole location row already: no second read of it.
    location: t.field({ type: LocationType, description: 'The location.', resolve: (p) => p.location }),
    pagination: t.field({ type: ChannelLocationPagination, description: 'Paging.', resolve: (p) => p.pagination }),
  }),
});

const ChannelAtpStockLine = builder.objectRef<DrilldownLine>('ChannelAtpStockLine').implement({
  description: 'A stock line behind a product\'s ATP at a location.',
  fields: (t) => ({
    stockLineId: t.exposeID('id', { description: 'The stock line (its StockLine id).' }),
    stockLine: t.field({ type: StockLineType, description: 'The stock line itself.', resolve: (line, _args, ctx) => ownRecord(ctx, 'stockLine', line.id, 'StockLine') }),
    lotId: t.exposeID('lotId', { nullable: true, description: 'Lot, if any.' }),
    lot: t.field({ type: LotType, nullable: true, authScopes: readScopesOf('Lot'), description: 'The lot (null when the line has none).', resolve: (row, _args, ctx) => linked(ctx, 'lot', row.lotId) }),
    lotCode: t.exposeString('lotCode', { nullable: true, description: 'Lot code, if any.' }),
    binId: t.exposeID('binId', { nullable: true, description: 'Bin, if any.' }),
    bin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The bin (null when the line is in none).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.binId) }),
    binCode: t.exposeString('binCode', { nullable: true, description: 'Bin code, if any.' }),
    expiryDate: t.field({ type: 'Date', nullable: true, description: 'Expiry date of the lot.', resolve: (l) => l.expiryDate }),
    qtyOnHand: t.exposeInt('qtyOnHand', { description: 'Units on hand.' }),
    qtyAvailable: t.exposeInt('qtyAvailable', { description: 'Units the line adds to available (0 when excluded).' }),
    qtyReserved: t.exposeInt('qtyReserved', { description: 'Units reserved.' }),
    qtyOnHold: t.exposeInt('qtyOnHold', { description: 'Units on hold.' }),
    qtyPicked: t.exposeInt('qtyPicked', { description: 'Units picked.' }),
    qtyRecalled: t.exposeInt('qtyRecalled', { description: 'Units under recall.' }),
    qtyExpired: t.exposeInt('qtyExpired', { description: 'Units past expiry.' }),
    excluded: t.exposeBoolean('excluded', { description: 'The whole line is left out of ATP because its lot is expired or recalled.' }),
    excludedReason: t.exposeString('excludedReason', { nullable: true, description: 'RECALLED or EXPIRED when excluded.' }),
  }),
});

const ChannelLocationDrilldown = builder.objectRef<Drilldown>('ChannelLocationDrilldown').implement({
  description: 'One product at one location: its channel ATP and the stock lines behind it.',
  fields: (t) => ({
    product: t.field({ type: ChannelAtpProduct, description: 'The product with its channel ATP.', resolve: (d) => d.product }),
    location: t.field({ type: LocationType, description: 'The location.', resolve: (d) => d.location }),
    channels: t.field({ type: [ChannelAtpEntryRef], description: 'The channel ATP entries (the same as product.channels).', resolve: (d) => d.channels }),
    channelList: t.field({ type: [ChannelAtpChannel], description: 'The channels shown, with their policies.', resolve: (d) => d.channelList }),
    stockLines: t.field({ type: [ChannelAtpStockLine], description: 'Every stock line of the product at the location.', resolve: (d) => d.stockLines }),
  }),
});

const ChannelSummaryRef = builder.objectRef<ChannelSummaryEntry>('ChannelAtpSummary').implement({
  description: 'One channel\'s ATP over every product with stock at every location (or one location).',
  fields: (t) => ({
    channelId: t.exposeID('channelId', { description: 'Channel id.' }),
    channel: t.field({ type: ChannelType, nullable: true, authScopes: readScopesOf('Channel'), description: 'The channel (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'channel', row.channelId) }),
    channelName: t.exposeString('channelName', { description: 'Channel name.' }),
    channelType: t.exposeString('channelType', { description: 'Kind of channel.' }),
    locations: t.exposeInt('locations', { description: 'Locations holding stock that were evaluated.' }),
    policyCount: t.exposeInt('policyCount', { description: 'Of all locations in the filter, those where the channel has a policy.' }),
    totalAtp: t.expose('totalAtp', { type: 'BigQuantity', description: 'ATP summed over every product and location.' }),
    criticalCount: t.exposeInt('criticalCount', { description: 'Product-location pairs that are CRITICAL.' }),
    lowCount: t.exposeInt('lowCount', { description: 'Product-location pairs that are LOW.' }),
    okCount: t.exposeInt('okCount', { description: 'Product-location pairs that are OK.' }),
  }),
});

const required = 'Required (a missing value is a 400 "locationId is required").';

type QueryFieldBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0];

/** What the products of the channel-location list are filtered by, beside the location. */
const filterArgs = (t: QueryFieldBuilder) => ({
  search: t.arg.string({ description: 'Case-insensitive match on product name or SKU.' }),
  channels: t.arg.idList({ description: 'Only these channels (unknown ids are 404).' }),
  channelId: t.arg.id({ description: 'Only this channel (adds to channels).' }),
  sku: t.arg.string({ description: 'Only the product with this SKU (case-insensitive).' }),
});

type AtpArgs = { locationId?: string | number | null; channelId?: string | number | null; channels?: (string | number)[] | null; search?: string | null; sku?: string | null; page?: number | null; limit?: number | null };

const atpArgs = (args: AtpArgs) => ({
  search: args.search,
  sku: args.sku,
  page: args.page,
  limit: args.limit,
  locationId: args.locationId?.toString(),
  channelId: args.channelId?.toString(),
  channels: args.channels?.map(String),
});

builder.queryFields((t) => ({
  channelLocationAtp: t.connection(
    {
      type: ChannelAtpProduct,
      description: `Channel ATP of the products stocked at a location (products with a stock line there), in SKU order, as a Relay connection; at most ${CHANNEL_ATP_PAGE.max} a page. ${RULE}`,
      authScopes: { permission: 'inventory.read' },
      extensions: positionCursors(CHANNEL_ATP_PAGE.max),
      args: { locationId: t.arg.id({ required: true, description: 'The location (NOT_FOUND when it is not the organization\'s).' }), ...filterArgs(t) },
      resolve: (_parent, args, ctx) =>
        windowConnection(args, CHANNEL_ATP_PAGE.limit, (window) =>
          channelLocationAtp(ctx, atpArgs(args), window).then(({ products, pagination, channels, location }) => ({ items: products, total: pagination.total, channels, location })),
        ),
    },
    {
      name: 'ChannelLocationAtpConnection',
      description: 'A page of the products at a location with their channel ATP, the channels shown and the location, with the cursors to fetch the next or previous page.',
      fields: (c) => ({
        totalCount: c.int({ description: 'Products matching, in all pages.', resolve: (page) => page.totalCount }),
        channels: c.field({ type: [ChannelAtpChannel], description: 'Channels shown, in name order.', resolve: (page) => page.channels }),
        location: c.field({ type: LocationType, description: 'The location.', resolve: (page) => page.location }),
      }),
    },
  ),
  channelLocationAtpPage: t.field({
    type: ChannelLocationAtp,
    description: "REST adapter's shape (GET /api/inventory/channel-location): channel ATP of the products at a location by page number.",
    deprecationReason: "The REST adapter's page shape (GET /api/inventory/channel-location); GraphQL clients use the connection `channelLocationAtp`.",
    authScopes: { permission: 'inventory.read' },
    args: {
      locationId: t.arg.id({ description: `The location. ${required}` }),
      ...filterArgs(t),
      page: t.arg.int({ description: 'Page number, from 1 (default 1).' }),
      limit: t.arg.int({ description: `Page size, 1 to ${CHANNEL_ATP_PAGE.max} (default ${CHANNEL_ATP_PAGE.limit}).` }),
    },
    resolve: (_parent, args, ctx) => channelLocationAtp(ctx, atpArgs(args)),
  }),
  channelLocationDrilldown: t.field({
    type: ChannelLocationDrilldown,
    description: 'One product at a location: channel ATP and every stock line behind it.',
    authScopes: { permission: 'inventory.read' },
    args: {
      locationId: t.arg.id({ description: `The location. ${required}` }),
      productMasterId: t.arg.id({ description: 'The product. Required.' }),
      channelId: t.arg.id({ description: 'Only this channel.' }),
    },
    resolve: (_parent, args, ctx) =>
      channelLocationDrilldown(ctx, {
        locationId: args.locationId?.toString(),
        productMasterId: args.productMasterId?.toString(),
        channelId: args.channelId?.toString(),
      }),
  }),
  channelSummary: t.field({
    type: [ChannelSummaryRef],
    description: 'ATP per channel over every location with stock, in channel name order. A plain list: one summary row per sales channel of the organization, a handful by design, never paged.',
    authScopes: { permission: 'inventory.read' },
    args: { locationId: t.arg.id({ description: 'Only this location.' }) },
    resolve: (_parent, args, ctx) => channelSummary(ctx, { locationId: args.locationId?.toString() }),
  }),
}));
