import { channelDrilldownQuery, channelLocationQuery, channelSummaryQuery } from '../../../src/contracts/inventory/channel-atp/channel-atp-queries.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { channelDrilldown, channelLocationPage, channelSummaries } from './channel-atp-responses.js';

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

const TAGS = ['Inventory'];

export const channelAtpRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/channel-location/drilldown',
    operation: `query ($locationId: ID, $productMasterId: ID, $channelId: ID) {
      channelLocationDrilldown(locationId: $locationId, productMasterId: $productMasterId, channelId: $channelId) {
        product { ${PRODUCT} } location { ${LOCATION} } channels { ${ENTRY} } channelList { ${CHANNEL} }
        stockLines { id: stockLineId lotId lotCode binId binCode expiryDate qtyOnHand qtyAvailable qtyReserved qtyOnHold qtyPicked qtyRecalled qtyExpired excluded excludedReason }
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
            ...jsonContent(channelDrilldown),
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
      channelLocationAtpPage(locationId: $locationId, search: $search, channels: $channels, channelId: $channelId, sku: $sku, page: $page, limit: $limit) {
        products { ${PRODUCT} } channels { ${CHANNEL} } location { ${LOCATION} } pagination { page pageSize total totalPages }
      }
    }`,
    input: { query: channelLocationQuery },
    variables: ({ query }) => query,
    // Both documented shapes in one response: {products, channels, location, pagination} and {data}.
    result: ({ channelLocationAtpPage: page }) => ({ ...page, data: page.products }),
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
            ...jsonContent(channelLocationPage),
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
            ...jsonContent(channelSummaries),
          },
        },
        [401, 403, 404],
      ),
    },
  },
]);
