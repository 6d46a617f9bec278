import { channelDrilldownQuery, channelLocationQuery, channelSummaryQuery } from '../../src/contracts/inventory/channel-atp-queries.js';
import { defineRoutes } from '../route.js';
import { jsonContent, responses, schemaRef } from '../openapi-common.js';

const ENTRY = 'channelId channelName atp onHand reserved available severity threshold policyId';
const PRODUCT = `productMasterId productName globalSku categoryName channels { ${ENTRY} } totalOnHand totalReserved totalAvailable minAtp maxAtp hasCritical`;
const CHANNEL = 'channelId channelName channelType policyId mode sharePct fixedQuantity lowAtpThreshold';
const LOCATION = 'id name code';

const RULE =
  'ATP rule. available = Σ over the product\'s stock lines at the location of (qtyOnHand − qtyReserved − qtyOnHold − qtyPicked − ' +
  'qtyRecalled − qtyExpired), leaving out lines whose lot is expired (expiry date before today, UTC) or recalled. Each channel of ' +
  'the organization is evaluated: with an allocation policy at the location, SHARE gives floor(available × sharePct) and FIXED gives ' +
  'min(fixedQuantity, available); without one the channel may promise all of available (policyId and threshold are null). ' +
  'Severity: CRITICAL when atp <= 0, LOW when atp < the policy\'s lowAtpThreshold, else OK. onHand and reserved count every line, ' +
  'excluded lots too. Policies are managed over GraphQL (allocationPolicies, setAllocationPolicy, deleteAllocationPolicy).';

const nullable = (type: string) => ({ type: [type, 'null'] });

export const channelAtpSchemas = {
  ChannelAtpEntry: {
    type: 'object',
    required: ['channelId', 'channelName', 'atp', 'onHand', 'reserved', 'available', 'severity'],
    properties: {
      channelId: { type: 'string' },
      channelName: { type: 'string' },
      atp: { type: 'integer', description: 'Available to promise for the channel.' },
      onHand: { type: 'integer', description: 'Units on hand at the location (every line).' },
      reserved: { type: 'integer', description: 'Units reserved at the location (every line).' },
      available: { type: 'integer', description: 'Units available at the location (usable lots only).' },
      severity: { type: 'string', enum: ['OK', 'LOW', 'CRITICAL'] },
      threshold: { ...nullable('integer'), description: 'The policy\'s lowAtpThreshold; null without a policy.' },
      policyId: { ...nullable('string'), description: 'The policy applied; null without a policy.' },
    },
  },
  ChannelAtpProduct: {
    type: 'object',
    required: ['productMasterId', 'productName', 'globalSku', 'channels', 'totalOnHand', 'totalReserved', 'minAtp', 'maxAtp', 'hasCritical'],
    properties: {
      productMasterId: { type: 'string' },
      productName: { type: 'string' },
      globalSku: { type: 'string' },
      categoryName: nullable('string'),
      channels: { type: 'array', items: schemaRef('ChannelAtpEntry') },
      totalOnHand: { type: 'integer' },
      totalReserved: { type: 'integer' },
      totalAvailable: { type: 'integer', description: 'Available at the location (usable lots only).' },
      minAtp: { type: 'integer', description: 'Lowest channel ATP (0 when no channel is shown).' },
      maxAtp: { type: 'integer', description: 'Highest channel ATP (0 when no channel is shown).' },
      hasCritical: { type: 'boolean' },
    },
  },
  ChannelAtpChannel: {
    type: 'object',
    required: ['channelId', 'channelName', 'channelType', 'policyId', 'lowAtpThreshold'],
    properties: {
      channelId: { type: 'string' },
      channelName: { type: 'string' },
      channelType: { type: 'string' },
      policyId: { ...nullable('string'), description: 'The channel\'s policy at the location; null: unrestricted.' },
      mode: { type: ['string', 'null'], enum: ['SHARE', 'FIXED', null] },
      sharePct: nullable('number'),
      fixedQuantity: nullable('integer'),
      lowAtpThreshold: { type: 'integer', description: '0 without a policy.' },
    },
  },
  ChannelAtpLocation: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' }, code: { type: 'string' } } },
  ChannelAtpStockLine: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      lotId: nullable('string'),
      lotCode: nullable('string'),
      binId: nullable('string'),
      binCode: nullable('string'),
      expiryDate: { type: ['string', 'null'], format: 'date' },
      qtyOnHand: { type: 'integer' },
      qtyAvailable: { type: 'integer', description: 'What the line adds to available: 0 when excluded.' },
      qtyReserved: { type: 'integer' },
      qtyOnHold: { type: 'integer' },
      qtyPicked: { type: 'integer' },
      qtyRecalled: { type: 'integer' },
      qtyExpired: { type: 'integer' },
      excluded: { type: 'boolean', description: 'The lot is expired or recalled, so the line adds nothing to ATP.' },
      excludedReason: { type: ['string', 'null'], enum: ['RECALLED', 'EXPIRED', null] },
    },
  },
  ChannelAtpSummary: {
    type: 'object',
    properties: {
      channelId: { type: 'string' },
      channelName: { type: 'string' },
      channelType: { type: 'string' },
      locations: { type: 'integer', description: 'Locations holding stock that were evaluated.' },
      policyCount: { type: 'integer', description: 'Locations (within the filter) where the channel has a policy.' },
      totalAtp: { type: 'integer', description: 'ATP summed over every product-location pair.' },
      criticalCount: { type: 'integer' },
      lowCount: { type: 'integer' },
      okCount: { type: 'integer' },
    },
  },
};

const TAGS = ['Inventory'];

export const channelAtpRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/channel-location/drilldown',
    operation: `query ($locationId: ID, $productMasterId: ID, $channelId: ID) {
      channelLocationDrilldown(locationId: $locationId, productMasterId: $productMasterId, channelId: $channelId) {
        product { ${PRODUCT} } location { ${LOCATION} } channels { ${ENTRY} } channelList { ${CHANNEL} }
        stockLines { id lotId lotCode binId binCode expiryDate qtyOnHand qtyAvailable qtyReserved qtyOnHold qtyPicked qtyRecalled qtyExpired excluded excludedReason }
      }
    }`,
    input: { query: channelDrilldownQuery },
    variables: ({ query }) => query,
    result: (data) => data.channelLocationDrilldown,
    doc: {
      operationId: 'getChannelLocationDrilldown',
      summary: 'Channel ATP of one product at a location, with the stock lines behind it',
      description: RULE,
      tags: TAGS,
      responses: responses(
        {
          200: {
            description: 'The product, its channel entries and every stock line of it at the location',
            ...jsonContent({
              type: 'object',
              properties: {
                product: schemaRef('ChannelAtpProduct'),
                location: schemaRef('ChannelAtpLocation'),
                channels: { type: 'array', items: schemaRef('ChannelAtpEntry') },
                channelList: { type: 'array', items: schemaRef('ChannelAtpChannel') },
                stockLines: { type: 'array', items: schemaRef('ChannelAtpStockLine') },
              },
            }),
          },
        },
        [400, 401, 403, 404],
      ),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/channel-location',
    operation: `query ($locationId: ID, $search: String, $channels: [ID!], $channelId: ID, $sku: String, $page: Int, $limit: Int) {
      channelLocationAtp(locationId: $locationId, search: $search, channels: $channels, channelId: $channelId, sku: $sku, page: $page, limit: $limit) {
        products { ${PRODUCT} } channels { ${CHANNEL} } location { ${LOCATION} } pagination { page pageSize total totalPages }
      }
    }`,
    input: { query: channelLocationQuery },
    variables: ({ query }) => query,
    // Both documented shapes in one response: {products, channels, location, pagination} and {data}.
    result: ({ channelLocationAtp: page }) => ({ ...page, data: page.products }),
    doc: {
      operationId: 'listChannelLocationAtp',
      summary: 'Channel ATP of the products at a location',
      description:
        `Products with at least one stock line at the location, in SKU order, each with the ATP of every channel. ${RULE} ` +
        'Both documented response shapes are served at once: data is the same array as products.',
      tags: TAGS,
      responses: responses(
        {
          200: {
            description: 'A page of products with channel ATP',
            ...jsonContent({
              type: 'object',
              required: ['products', 'channels', 'location', 'pagination', 'data'],
              properties: {
                products: { type: 'array', items: schemaRef('ChannelAtpProduct') },
                channels: { type: 'array', items: schemaRef('ChannelAtpChannel') },
                location: schemaRef('ChannelAtpLocation'),
                pagination: {
                  type: 'object',
                  properties: { page: { type: 'integer' }, pageSize: { type: 'integer' }, total: { type: 'integer' }, totalPages: { type: 'integer' } },
                },
                data: { type: 'array', items: schemaRef('ChannelAtpProduct'), description: 'The same as products (the variant\'s key).' },
              },
            }),
          },
        },
        [400, 401, 403, 404],
      ),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/channel/summary',
    operation: `query ($locationId: ID) {
      channelSummary(locationId: $locationId) { channelId channelName channelType locations policyCount totalAtp criticalCount lowCount okCount }
    }`,
    input: { query: channelSummaryQuery },
    variables: ({ query }) => query,
    result: (data) => ({ channels: data.channelSummary, data: data.channelSummary }),
    doc: {
      operationId: 'listChannelSummaries',
      summary: 'ATP per channel over every location',
      description:
        `For each channel (name order): ATP summed over every product-location pair with a stock line, and how many pairs are ` +
        `CRITICAL, LOW and OK. ${RULE} channels and data hold the same array.`,
      tags: TAGS,
      responses: responses(
        {
          200: {
            description: 'One entry per channel',
            ...jsonContent({
              type: 'object',
              properties: {
                channels: { type: 'array', items: schemaRef('ChannelAtpSummary') },
                data: { type: 'array', items: schemaRef('ChannelAtpSummary') },
              },
            }),
          },
        },
        [401, 403, 404],
      ),
    },
  },
]);
