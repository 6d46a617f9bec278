import { cycleCountAbcUpdate } from '../../../src/contracts/inventory/cycle-counts/abc-config.js';
import { cycleCountQuery } from '../../../src/contracts/inventory/cycle-counts/cycle-count-query.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, responses } from '../../openapi-common.js';
import { abcConfigAnswer, abcUpdateAnswer, cycleCountAnswer } from './cycle-counts-responses.js';

const CONFIG = 'aPercent bPercent cPercent aFrequencyDays bFrequencyDays cFrequencyDays';
const PRODUCT = 'productMasterId sku productName locationId lastCountedDate nextCountDate isOverdue abcClass currentQty';
const inventory = { tags: ['Inventory'] };

export const cycleCountRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/cycle-count/abc',
    operation: `query { cycleCountAbcConfig { ${CONFIG} } }`,
    result: ({ cycleCountAbcConfig }) => ({ config: cycleCountAbcConfig }),
    doc: {
      operationId: 'getCycleCountAbcConfig',
      summary: 'Read the ABC configuration',
      description: "The organization's ABC percents and count frequencies (the same answer as GET /api/inventory/cycle-count?mode=abc-config).",
      ...inventory,
      responses: responses({ 200: { description: 'The configuration', ...jsonContent(abcConfigAnswer) } }, [401, 403]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/cycle-count/abc',
    operation: `mutation ($input: CycleCountAbcUpdateInput!) {
      updateCycleCountAbc(input: $input) { config { ${CONFIG} } reclassification { locationId from to productsRanked changed countA countB countC } }
    }`,
    input: { body: cycleCountAbcUpdate },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.updateCycleCountAbc,
    doc: {
      operationId: 'updateCycleCountAbc',
      summary: 'Set the ABC configuration, reclassify a location',
      description:
        'Changes the fields given (the others keep their value): the three percents must add up to 100 and the frequencies be positive whole days, else 400 ' +
        'with details naming the fields. With `reclassify: {locationId, periodDays}` the products of the location (every product with a stock line or an ' +
        'inventory level there) are ranked by the value of their outflows over the last periodDays days (default 90): units leaving on hand (not counts, ' +
        'count corrections, lot corrections or bin moves) × unit cost, or the units where the product has no cost. A product is A while the value ranked ' +
        "before it is under aPercent of the total, B under aPercent + bPercent, C after (a product that did not move is a C); each level's abcClass is set " +
        "(a level with defaults is created where the product has none) and `changed` says how many changed class. A locationId that is not the organization's: " +
        '400 details.reclassify.locationId. One transaction: a refused request changes nothing.',
      ...inventory,
      responses: responses({ 200: { description: 'The configuration, and the reclassification', ...jsonContent(abcUpdateAnswer) } }, [400, 401, 403]),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/cycle-count',
    operation: `query ($products: Boolean!, $config: Boolean!, $locationId: ID!, $search: String, $categoryId: ID, $binId: ID, $abcClass: AbcClass,
      $showOverdueOnly: Boolean, $page: Int, $limit: Int) {
      cycleCountAbcConfig @include(if: $config) { ${CONFIG} }
      cycleCountProductsPage(locationId: $locationId, search: $search, categoryId: $categoryId, binId: $binId, abcClass: $abcClass,
        showOverdueOnly: $showOverdueOnly, page: $page, limit: $limit) @include(if: $products) {
        type products { ${PRODUCT} } count overdueCount page pageSize total totalPages
      }
    }`,
    input: { query: cycleCountQuery },
    variables: ({ query: { mode = 'all-products', locationId, ...filters } }) => ({
      ...filters,
      products: mode === 'all-products',
      config: mode === 'abc-config',
      // abc-config needs no location; the skipped field's required argument still wants a value.
      locationId: locationId ?? '',
    }),
    result: ({ cycleCountAbcConfig, cycleCountProductsPage }) => {
      if (cycleCountAbcConfig) return { config: cycleCountAbcConfig };
      const { type, products, count, overdueCount, ...pagination } = cycleCountProductsPage;
      return { type, products, count, overdueCount, pagination };
    },
    doc: {
      operationId: 'viewCycleCounts',
      summary: 'Cycle count views',
      description:
        'mode all-products (default): the count schedule of locationId, soonest due first, then by SKU, a page at a time (limit default 50, at most 200): ' +
        "next count date = last counted date + the class's frequency (C's when unclassified), today when never counted; overdue when it is today or earlier; " +
        '`count` and `overdueCount` cover every page. mode abc-config: `{config}`, the only mode without locationId. Any other mode without locationId: 400 ' +
        'naming locationId; an unknown mode: 400. A locationId, categoryId or binId that is not the organization\'s: 404.',
      ...inventory,
      responses: responses({ 200: { description: 'The answer of the mode', ...jsonContent(cycleCountAnswer) } }, [400, 401, 403, 404]),
    },
  },
]);
