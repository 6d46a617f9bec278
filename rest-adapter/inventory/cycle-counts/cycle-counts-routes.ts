import { cycleCountAbcUpdate } from '../../../src/contracts/inventory/cycle-counts/abc-config.js';
import { cycleCountQuery } from '../../../src/contracts/inventory/cycle-counts/cycle-count-query.js';
import { cycleCountBatchAction, cycleCountBatchCreate } from '../../../src/contracts/inventory/cycle-counts/cycle-count-batch.js';
import { defineRoutes } from '../../route.js';
import { jsonContent, pathParam, responses } from '../../openapi-common.js';
import { abcSettingsAnswer, abcUpdateAnswer, accuracyAnswer, batchAnswer, blindSheet, cycleCountAnswer, resolveAnswer } from './cycle-counts-responses.js';
import { cycleCountAccuracyQuery } from '../../../src/contracts/inventory/cycle-counts/accuracy-query.js';
import { cycleCountResolve } from '../../../src/contracts/inventory/cycle-counts/resolve.js';
import { blindFormQuery } from '../../../src/contracts/inventory/cycle-counts/blind-form-query.js';

const CONFIG = 'aPercent bPercent cPercent aFrequencyDays bFrequencyDays cFrequencyDays';
const PRODUCT = 'productMasterId sku productName locationId lastCountedDate nextCountDate isOverdue abcClass currentQty';
const BATCH_ROW = 'id locationId status assigneeId createdAt itemCount';
const FIGURES = 'countedLines withinTolerance exactLines accuracyPercent';
const SUGGESTION = `rank productMasterId sku productName locationId abcClass lastCountedDate nextCountDate isOverdue currentQty unitCost value
  recentVariances lastVarianceAt reasons`;
const BATCH = `${BATCH_ROW} createdBy updatedAt completedAt cancelledAt lines {
  id productMasterId sku productName lotId lotCode expiryDate binId binCode stockLineId snapshotQty found countedQty expectedQty varianceQty countedAt countedBy
  history { countedQty expectedQty countedAt countedBy }
}`;
const inventory = { tags: ['Inventory'] };
const SHEET_LINE = 'lineId stockLineId binId binCode productMasterId sku productName lotId lotCode expiryDate';
const SHEET_COLUMNS = ['binCode', 'sku', 'productName', 'lotCode', 'expiryDate', 'lineId', 'stockLineId'] as const;
const csvCell = (value: unknown) => {
  const text = value == null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
/** The sheet as CSV: one row per line, and an empty countedQty column to write in. */
const sheetCsv = ({ cycleCountBlindForm: { lines } }: { cycleCountBlindForm: { lines: Record<string, unknown>[] } }) =>
  [[...SHEET_COLUMNS, 'countedQty'].join(','), ...lines.map((line) => [...SHEET_COLUMNS.map((c) => csvCell(line[c])), ''].join(','))].join('\r\n') + '\r\n';

export const cycleCountRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/inventory/cycle-count/blind-form',
    operation: `query ($locationId: ID!, $batchId: ID, $page: Int, $limit: Int) {
      cycleCountBlindForm(locationId: $locationId, batchId: $batchId, page: $page, limit: $limit) { locationId batchId lines { ${SHEET_LINE} } page pageSize total totalPages }
    }`,
    input: { query: blindFormQuery },
    variables: ({ query }) => query,
    result: ({ cycleCountBlindForm: { locationId, batchId, lines, ...pagination } }) => ({ locationId, batchId, lines, pagination }),
    csv: sheetCsv,
    doc: {
      operationId: 'getCycleCountBlindForm',
      summary: 'Blind count sheet',
      description:
        'The lines to count (bin, SKU, product, lot, expiry), by bin, SKU and lot, with no expected quantity anywhere: the server leaves it out. With batchId: ' +
        "the batch's lines (lineId to record counts on); without: every stock line of the location, 500 a page (at most 2000). `Accept: text/csv` answers CSV " +
        '(binCode, sku, productName, lotCode, expiryDate, lineId, stockLineId and an empty countedQty column). A locationId or batchId that is not the ' +
        "organization's: 404; a batch of another location: 400.",
      ...inventory,
      responses: responses(
        { 200: { description: 'The sheet', content: { 'application/json': { schema: blindSheet }, 'text/csv': { schema: { type: 'string' } } } } },
        [400, 401, 403, 404],
      ),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/cycle-count/accuracy',
    operation: `query ($locationId: ID, $from: Date, $to: Date) {
      cycleCountAccuracy(locationId: $locationId, from: $from, to: $to) {
        locationId from to tolerance { units percent value }
        overall { ${FIGURES} }
        byClass { abcClass ${FIGURES} }
        byLocation { locationId locationCode locationName ${FIGURES} }
      }
    }`,
    input: { query: cycleCountAccuracyQuery },
    variables: ({ query }) => query,
    result: (data) => data.cycleCountAccuracy,
    doc: {
      operationId: 'getCycleCountAccuracy',
      summary: 'Inventory record accuracy',
      description:
        "The share of counted lines whose count was within the organization's tolerance (`withinToleranceSql`, its tolerance now: units, percent of the " +
        'expected quantity, value), over the count lines of COMPLETED batches counted from `from` to `to` (UTC days, both included; default the 90 days ' +
        'ending today; at most 3660 days), each by its last count: `overall`, `byClass` (A, B, C and unclassified, the product\'s class at the location now) ' +
        'and `byLocation`, each `{countedLines, withinTolerance, exactLines, accuracyPercent}` (null when nothing was counted). IN_PROGRESS batches ' +
        "(they may still be recounted) and CANCELLED ones are not measured. locationId: only that location (404 when it is not the organization's).",
      ...inventory,
      responses: responses({ 200: { description: 'The report', ...jsonContent(accuracyAnswer) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/cycle-count/abc',
    operation: `query { cycleCountAbcConfig { ${CONFIG} } cycleCountTolerance { units percent value } }`,
    result: ({ cycleCountAbcConfig, cycleCountTolerance }) => ({ config: cycleCountAbcConfig, tolerance: cycleCountTolerance }),
    doc: {
      operationId: 'getCycleCountAbcConfig',
      summary: 'Read the ABC configuration',
      description: "The organization's ABC percents and count frequencies (`config`, as GET /api/inventory/cycle-count?mode=abc-config answers it) and its count tolerance.",
      ...inventory,
      responses: responses({ 200: { description: 'The configuration and tolerance', ...jsonContent(abcSettingsAnswer) } }, [401, 403]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/cycle-count/abc',
    operation: `mutation ($input: CycleCountAbcUpdateInput!) {
      updateCycleCountAbc(input: $input) { config { ${CONFIG} } tolerance { units percent value } reclassification { locationId from to productsRanked changed countA countB countC } }
    }`,
    input: { body: cycleCountAbcUpdate },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.updateCycleCountAbc,
    doc: {
      operationId: 'updateCycleCountAbc',
      summary: 'Set the ABC configuration, reclassify a location',
      description:
        'Changes the fields given (the others keep their value): the three percents must add up to 100 and the frequencies be positive whole days, else 400 ' +
        'with details naming the fields. `tolerance: {units, percent, value}` sets the count tolerance (variances within any of them are accepted when a batch completes). With `reclassify: {locationId, periodDays}` the products of the location (every product with a stock line or an ' +
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
    operation: `query ($products: Boolean!, $batches: Boolean!, $variances: Boolean!, $suggestions: Boolean!, $config: Boolean!, $locationId: ID!, $status: CycleCountBatchStatus, $assigneeId: ID, $includeCompleted: Boolean, $search: String, $categoryId: ID, $binId: ID, $abcClass: AbcClass,
      $showOverdueOnly: Boolean, $page: Int, $limit: Int) {
      cycleCountAbcConfig @include(if: $config) { ${CONFIG} }
      cycleCountProductsPage(locationId: $locationId, search: $search, categoryId: $categoryId, binId: $binId, abcClass: $abcClass,
        showOverdueOnly: $showOverdueOnly, page: $page, limit: $limit) @include(if: $products) {
        type products { ${PRODUCT} } count overdueCount page pageSize total totalPages
      }
      cycleCountBatchesPage(locationId: $locationId, status: $status, assigneeId: $assigneeId, includeCompleted: $includeCompleted, page: $page, limit: $limit)
        @include(if: $batches) { type batches { ${BATCH_ROW} } count page pageSize total totalPages }
      cycleCountVariancesPage(locationId: $locationId, page: $page, limit: $limit) @include(if: $variances) {
        type lines { lineId batchId productMasterId sku productName lotId lotCode binId binCode expectedQty countedQty varianceQty unitCost varianceValue countedAt }
        count page pageSize total totalPages
      }
      cycleCountSuggestionsPage(locationId: $locationId, page: $page, limit: $limit) @include(if: $suggestions) {
        type suggestions { ${SUGGESTION} } count overdueCount page pageSize total totalPages
      }
    }`,
    input: { query: cycleCountQuery },
    variables: ({ query: { mode = 'all-products', locationId, status, assigneeId, includeCompleted, ...filters } }) => ({
      ...filters,
      ...(mode === 'batches' ? { status, assigneeId, includeCompleted } : {}),
      products: mode === 'all-products',
      batches: mode === 'batches',
      variances: mode === 'to-resolve',
      suggestions: mode === 'suggestions',
      config: mode === 'abc-config',
      // abc-config needs no location; the skipped field's required argument still wants a value.
      locationId: locationId ?? '',
    }),
    result: ({ cycleCountAbcConfig, cycleCountProductsPage, cycleCountBatchesPage, cycleCountVariancesPage, cycleCountSuggestionsPage }) => {
      if (cycleCountSuggestionsPage) {
        const { type, suggestions, count, overdueCount, ...pagination } = cycleCountSuggestionsPage;
        return { type, suggestions, count, overdueCount, pagination };
      }
      if (cycleCountVariancesPage) {
        const { type, lines, count, ...pagination } = cycleCountVariancesPage;
        return { type, lines, count, pagination };
      }
      if (cycleCountAbcConfig) return { config: cycleCountAbcConfig };
      if (cycleCountBatchesPage) {
        const { type, batches, count, ...pagination } = cycleCountBatchesPage;
        return { type, batches, count, pagination };
      }
      const { type, products, count, overdueCount, ...pagination } = cycleCountProductsPage;
      return { type, products, count, overdueCount, pagination };
    },
    doc: {
      operationId: 'viewCycleCounts',
      summary: 'Cycle count views',
      description:
        'mode all-products (default): the count schedule of locationId, soonest due first, then by SKU, a page at a time (limit default 50, at most 200): ' +
        "next count date = last counted date + the class's frequency (C's when unclassified), today when never counted; overdue when it is today or earlier; " +
        '`count` and `overdueCount` cover every page. mode batches: the location\'s batches, newest first (IN_PROGRESS only unless `status` or `includeCompleted`), ' +
        '`{type, batches, count, pagination}`. mode to-resolve: counted, unresolved lines whose count differs from the quantity expected at the moment of the count, ' +
        'with the variance in units and value, largest absolute value first, `{type, lines, count, pagination}`. mode suggestions: what to count next, ' +
        '`{type, suggestions, count, overdueCount, pagination}` (limit default 50, at most 200): the products with a stock line at the location that no open ' +
        'count line covers, overdue first by ABC class (A, B, then C and unclassified) and value of on hand (highest first, no cost last), then those an ' +
        'accepted count corrected in the last 90 days by class and value, then the rest by next count date, class and value; each row with its `rank` and ' +
        '`reasons` (OVERDUE, NEVER_COUNTED, RECENT_VARIANCE). POST with `suggested: N` counts ranks 1 to N of this ranking. mode abc-config: `{config}`, the only mode without locationId. Any other mode without locationId: 400 ' +
        'naming locationId; an unknown mode: 400. A locationId, categoryId or binId that is not the organization\'s: 404.',
      ...inventory,
      responses: responses({ 200: { description: 'The answer of the mode', ...jsonContent(cycleCountAnswer()) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/cycle-count/resolve',
    operation: `mutation ($input: CycleCountResolveInput!) { resolveCycleCountLines(input: $input) { resolutions { lineId action correctionQty stockLineId transactionId } } }`,
    input: { body: cycleCountResolve },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.resolveCycleCountLines,
    doc: {
      operationId: 'resolveCycleCounts',
      summary: 'Accept or reject count variances',
      description:
        '`resolutions: [{lineId, action: ACCEPT | REJECT, reasonCodeId?, comment?}]`, all in one transaction. ACCEPT adds countedQty - expectedQty (the difference at ' +
        'the moment of the count) to on hand as it is now, with a COUNT_CORRECTION ledger row (reason default COUNT_CORRECTION), so sales, receipts and adjustments ' +
        "since the count are kept; it sets the product's last counted date at the location. REJECT clears the count (kept in the line's history) and asks for a recount. " +
        'Each line is locked first: a line resolved already (ACCEPTED), not counted, or of a CANCELLED batch is 409 INVALID_STATE, so resolving a line twice has one effect. ' +
        "A lineId that is not the organization's: 400 naming it; on hand below its parts: 400 INSUFFICIENT_STOCK. A refused request changes nothing.",
      ...inventory,
      responses: responses({ 200: { description: 'What each decision did', ...jsonContent(resolveAnswer) } }, [400, 401, 403, 409]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/cycle-count',
    operation: `mutation ($input: CycleCountBatchCreateInput!) { createCycleCountBatch(input: $input) { ${BATCH} } }`,
    input: { body: cycleCountBatchCreate },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createCycleCountBatch,
    status: 201,
    doc: {
      operationId: 'createCycleCountBatch',
      summary: 'Create a cycle count batch',
      description:
        'A batch IN_PROGRESS at locationId over every stock line of `productMasterIds`, of `binIds`, or of the first `suggested` products of mode suggestions ' +
        '(exactly one of the three), each line with its on hand now (`snapshotQty`) and its ledger position, read in one statement. `assigneeId`: a user of the ' +
        'organization. Ids that are not the organization\'s (or bins not at the location): 400 naming them; nothing to count or more than 2000 lines: 400. ' +
        'A stock line is in one open count line at most (its batch IN_PROGRESS, or COMPLETED with the variance unresolved), so that it is never corrected twice: ' +
        'a batch covering such a line is 409 INVALID_STATE with `details` naming each line (SKU, product id, lot, bin) and the open batch, under the field that chose it ' +
        '(`productMasterIds.N`, `binIds.N` or `suggested`). Two creates at once at one location run one after the other.',
      ...inventory,
      responses: responses({ 201: { description: 'The batch with its lines', ...jsonContent(batchAnswer) } }, [400, 401, 403, 409]),
    },
  },
  {
    method: 'GET',
    path: '/api/inventory/cycle-count/:id',
    operation: `query ($id: ID!) { cycleCountBatch(id: $id) { ${BATCH} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.cycleCountBatch,
    doc: {
      operationId: 'getCycleCountBatch',
      summary: 'Read a cycle count batch',
      description: "The batch with its lines, by bin, SKU and lot. Unknown or another organization's: 404.",
      ...inventory,
      parameters: [pathParam('id', 'The batch (batchId).')],
      responses: responses({ 200: { description: 'The batch', ...jsonContent(batchAnswer) } }, [401, 403, 404]),
    },
  },
  {
    method: 'POST',
    path: '/api/inventory/cycle-count/:id',
    operation: `mutation ($id: ID!, $input: CycleCountBatchActionInput!) { updateCycleCountBatch(id: $id, input: $input) { ${BATCH} } }`,
    input: { body: cycleCountBatchAction },
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => data.updateCycleCountBatch,
    doc: {
      operationId: 'updateCycleCountBatch',
      summary: 'Record counts, complete or cancel a batch',
      description:
        '`action: RECORD` with `counts` [{lineId, countedQty}] or [{productMasterId, lotId or lotCode, binId or binCode, countedQty}] (codes of existing lots ' +
        'of the product and bins of the location; a line the snapshot did not have is added as ' +
        'found); a recount replaces the earlier count and keeps it in `history`. Each count stores `expectedQty`, the line\'s on hand at that moment (the snapshot plus ' +
        'every movement since). `COMPLETE` needs every line counted; `CANCEL`. A batch that is not IN_PROGRESS, lines not counted on COMPLETE, or a found line ' +
        'open in another batch (details.counts.N.productMasterId names it): 409 INVALID_STATE. ' +
        "Unknown or another organization's batch: 404; ids in counts that do not fit: 400 naming them. A refused request changes nothing.",
      ...inventory,
      parameters: [pathParam('id', 'The batch (batchId).')],
      responses: responses({ 200: { description: 'The batch after the action', ...jsonContent(batchAnswer) } }, [400, 401, 403, 404, 409]),
    },
  },
]);
