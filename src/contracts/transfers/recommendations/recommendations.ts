import { z } from 'zod';
import { MAX_DECIMAL } from '../../../kernel/input-limits.js';
import { mustBe } from '../../parse.js';
import { anyCaseEnum, flag, text, wholeNumberOr } from '../../query-values.js';
import { optionalNote } from '../../text-fields.js';

export const RECOMMENDATION_STATUSES = ['PENDING', 'APPROVED', 'EXECUTED', 'REJECTED', 'EXPIRED'] as const;
export const TRANSFER_PRIORITIES = ['URGENT', 'HIGH', 'MEDIUM', 'LOW'] as const;

/** Page size of GET /api/transfers/recommendations: default and maximum (the interface's Limits). */
export const RECOMMENDATIONS_DEFAULT_LIMIT = 50;
export const RECOMMENDATIONS_MAX_LIMIT = 100;
/**
 * Recommendations a generation answers in its body, most pressing first: a big organization's generation
 * proposes thousands, whose bodies would be megabytes; `total` counts them all and the list pages them.
 */
export const GENERATED_SHOWN = 100;

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required');

/** Body of POST /api/transfers/recommendations and input of generateTransferRecommendations. */
export const generateRecommendations = z
  .strictObject({
    locationId: id.nullish().meta({ description: 'Only recommendations into or out of this location of the organization (400 otherwise).' }),
    productMasterId: id.nullish().meta({ description: 'Only this product of the organization (400 otherwise).' }),
    minStockDifferencePct: z
      .number({ error: mustBe('a number from 0 to 1') })
      .min(0, 'Must be at least 0')
      .max(1, 'Must be at most 1')
      .nullish()
      .meta({ description: 'Least gap between the two locations, as a fraction of the source\'s available stock: (source − destination) ÷ source (default 0).' }),
    requirePositiveROI: z.boolean({ error: mustBe('true or false') }).nullish().meta({ description: 'Keep only moves whose estimatedROI is above 0 (needs unitMargin; default false).' }),
    unitMargin: z
      .number({ error: mustBe('a positive number') })
      .gt(0, 'Must be above 0')
      .max(MAX_DECIMAL, `At most ${MAX_DECIMAL}`)
      .nullish()
      .meta({ description: 'Profit per unit sold, for estimatedROI; without it estimatedROI is null.' }),
  })
  .superRefine((input, issue) => {
    if (input.requirePositiveROI && input.unitMargin == null) {
      issue.addIssue({ code: 'custom', path: ['unitMargin'], message: 'Required when requirePositiveROI is true' });
    }
  });

/**
 * Upper or lower case (`pending` and `PENDING`), from a query string or a GraphQL enum; empty is absent.
 * OpenAPI lists both spellings, since the machine-readable variant of the interface uses the lower case.
 */
const paging = {
  limit: wholeNumberOr(RECOMMENDATIONS_DEFAULT_LIMIT, `Must be a whole number from 1 to ${RECOMMENDATIONS_MAX_LIMIT}`, { min: 1, max: RECOMMENDATIONS_MAX_LIMIT }).meta({
    description: `Page size (default ${RECOMMENDATIONS_DEFAULT_LIMIT}, at most ${RECOMMENDATIONS_MAX_LIMIT}).`,
  }),
  offset: wholeNumberOr(0, 'Must be a whole number, 0 or more', { min: 0 }).meta({ description: 'Recommendations to skip (default 0).' }),
};

const filters = {
  priority: anyCaseEnum(TRANSFER_PRIORITIES).meta({ description: 'Only this priority (URGENT, HIGH, MEDIUM, LOW; any case).' }),
  productMasterId: text.meta({ description: 'Only this product (404 when it is not one of the organization).' }),
  sourceLocationId: text.meta({ description: 'Only moves out of this location (404 when it is not one of the organization).' }),
  destLocationId: text.meta({ description: 'Only moves into this location (404 when it is not one of the organization).' }),
  validOnly: flag.meta({ description: 'Only actionable ones: PENDING or APPROVED, not expired, and the source has at least the quantity available today.' }),
};

/** Query of GET /api/transfers/recommendations and arguments of transferRecommendations. */
export const recommendationListQuery = z.object({
  status: anyCaseEnum(RECOMMENDATION_STATUSES).meta({ description: 'Only this state (PENDING, APPROVED, EXECUTED, REJECTED, EXPIRED; lower case too). An overdue PENDING one is EXPIRED.' }),
  ...filters,
  ...paging,
});

/** Query of GET /api/transfers/recommendations/pending: the list's filters without status. */
export const pendingRecommendationQuery = z.object({ ...filters, ...paging });

/** Body of execute: none, or an empty object (a field in it is 400, not silently ignored). */
export const recommendationExecution = z.strictObject({}).optional();

/** Body of approve and reject. */
export const recommendationDecision = z.strictObject({
  comment: optionalNote(2000).meta({ description: 'Why (kept with the recommendation; at most 2000 characters).' }),
});

/** Body of PUT /api/transfers/costs and input of setTransferCost. */
export const transferCostInput = z
  .strictObject({
    sourceLocationId: id.meta({ description: 'Where units leave (a location of the organization).' }),
    destLocationId: id.meta({ description: 'Where units arrive (a location of the organization, not the source).' }),
    costPerUnit: z
      .number({ error: mustBe('a number, 0 or more') })
      .min(0, 'Must be 0 or more')
      .max(MAX_DECIMAL, `At most ${MAX_DECIMAL}`)
      .meta({ description: 'Cost of moving one unit from the source to the destination (this direction only), 0 or more.' }),
  })
  .superRefine((input, issue) => {
    if (input.sourceLocationId === input.destLocationId) issue.addIssue({ code: 'custom', path: ['destLocationId'], message: 'Must differ from sourceLocationId' });
  });

/** Query of GET /api/transfers/costs. */
export const transferCostQuery = z.object({
  sourceLocationId: text.meta({ description: 'Only costs out of this location.' }),
  destLocationId: text.meta({ description: 'Only costs into this location.' }),
});
