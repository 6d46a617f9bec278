import { z } from 'zod';
import { pagingShape } from '../../paging.js';
import { anyCaseEnum, flag, text } from '../../query-values.js';
import { batchFilters } from './cycle-count-batch.js';

/** Page of the all-products view: 50 rows by default, at most 200 (the stock line list's maximum). */
export const CYCLE_COUNT_PRODUCT_PAGE = { limit: 50, max: 200 } as const;

/** The modes of GET /api/inventory/cycle-count this service answers. */
export const CYCLE_COUNT_MODES = ['all-products', 'batches', 'to-resolve', 'suggestions', 'abc-config'] as const;

/** How far back an accepted correction makes a product a suggestion to count again (mode suggestions). */
export const RECENT_VARIANCE_DAYS = 90;

const LOCATION = "The location counted (404 when it is not one of the organization's).";

const productFilters = {
  search: text.meta({ description: "Case-insensitive match on the product's SKU or name." }),
  categoryId: text.meta({ description: "Only products of this category (404 when it is not one of the organization's)." }),
  binId: text.meta({ description: "Only products with a stock line in this bin (404 when it is not one of the organization's)." }),
  abcClass: anyCaseEnum(['A', 'B', 'C']).meta({ description: 'Only products of this ABC class at the location (A, B or C, any case); unclassified products never match.' }),
  showOverdueOnly: flag.meta({ description: 'Only products whose next count date is today or earlier (never counted: due today).' }),
};

/** Arguments of cycleCountProducts (the all-products view of one location). */
export const cycleCountProductQuery = z.object({
  locationId: z
    .preprocess((raw) => (raw === '' || raw === null ? undefined : raw), z.string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be text') }))
    .meta({ description: LOCATION }),
  ...productFilters,
  ...pagingShape(CYCLE_COUNT_PRODUCT_PAGE),
});

/** Arguments of cycleCountSuggestions (mode suggestions): one location's ranking of what to count next. */
export const cycleCountSuggestionQuery = z.object({
  locationId: z
    .preprocess((raw) => (raw === '' || raw === null ? undefined : raw), z.string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be text') }))
    .meta({ description: LOCATION }),
  ...pagingShape(CYCLE_COUNT_PRODUCT_PAGE),
});

/** Query of GET /api/inventory/cycle-count: a mode and its parameters; locationId is required by every mode but abc-config. */
export const cycleCountQuery = z
  .object({
    mode: anyCaseEnum(CYCLE_COUNT_MODES, 'lower').meta({ description: `What to answer: ${CYCLE_COUNT_MODES.join(', ')} (default all-products).` }),
    locationId: text.meta({ description: `${LOCATION} Required unless mode is abc-config.` }),
    ...productFilters,
    ...batchFilters,
    ...pagingShape(CYCLE_COUNT_PRODUCT_PAGE),
  })
  .superRefine((query, issue) => {
    if (query.mode !== 'abc-config' && !query.locationId) issue.addIssue({ code: 'custom', path: ['locationId'], message: 'Required' });
  });
