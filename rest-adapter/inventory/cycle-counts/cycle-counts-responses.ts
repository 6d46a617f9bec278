import { z } from 'zod';
import { calendarDate, dateTime, integer } from '../../common-responses.js';

/** Response schemas of the cycle-count routes (their inputs come from src/contracts). */

export const abcConfig = z
  .object({
    aPercent: integer.describe('Share of the movement value class A takes, in percent.'),
    bPercent: integer.describe('Share of the movement value class B takes, in percent.'),
    cPercent: integer.describe('Share of the movement value class C takes, in percent (the three add up to 100).'),
    aFrequencyDays: integer.describe('Days between two counts of a class A product.'),
    bFrequencyDays: integer.describe('Days between two counts of a class B product.'),
    cFrequencyDays: integer.describe('Days between two counts of a class C (or unclassified) product.'),
  })
  .meta({ id: 'CycleCountAbcConfig', description: "The organization's ABC classification (80/15/5 % and 30/90/180 days until it sets one)." });

export const abcConfigAnswer = z.object({ config: abcConfig }).meta({ id: 'CycleCountAbcConfigAnswer' });

const tolerance = z
  .object({ units: integer, percent: z.number(), value: z.number() })
  .meta({ id: 'CycleCountTolerance', description: 'Variances within any of these are accepted by themselves when a batch completes.' });

export const abcSettingsAnswer = z.object({ config: abcConfig, tolerance }).meta({ id: 'CycleCountSettings' });

const reclassification = z
  .object({
    locationId: z.string(),
    from: dateTime.describe('Start of the period read.'),
    to: dateTime.describe('End of the period read (now).'),
    productsRanked: integer.describe('Products with a stock line or an inventory level at the location.'),
    changed: integer.describe('Products whose class is now another one (unclassified before counts).'),
    countA: integer,
    countB: integer,
    countC: integer,
  })
  .meta({ id: 'AbcReclassification' });

export const abcUpdateAnswer = z
  .object({ config: abcConfig, tolerance, reclassification: reclassification.nullable().describe('null when no reclassification was asked for.') })
  .meta({ id: 'CycleCountAbcUpdate' });

const product = z
  .object({
    productMasterId: z.string(),
    sku: z.string(),
    productName: z.string(),
    locationId: z.string(),
    lastCountedDate: calendarDate.nullable().describe('When a count was last resolved; null: never counted.'),
    nextCountDate: calendarDate.describe("Last counted date + the class's frequency (C's when unclassified); today when never counted."),
    isOverdue: z.boolean().describe('The next count date is today or earlier.'),
    abcClass: z.enum(['A', 'B', 'C']).nullable(),
    currentQty: integer.describe('On hand over all its stock lines at the location.'),
  })
  .meta({ id: 'CycleCountProduct' });

const productsAnswer = z
  .object({
    type: z.literal('all-products'),
    products: z.array(product).describe('This page, soonest due first, then by SKU.'),
    count: integer.describe('Products matching the filters in all pages.'),
    overdueCount: integer.describe('Of those, the products due today or earlier.'),
    pagination: z.object({ page: integer, pageSize: integer, total: integer, totalPages: integer }),
  })
  .meta({ id: 'CycleCountProducts' });

const suggestion = z
  .object({
    rank: integer.describe('Place in the ranking, from 1.'),
    productMasterId: z.string(),
    sku: z.string(),
    productName: z.string(),
    locationId: z.string(),
    abcClass: z.enum(['A', 'B', 'C']).nullable().describe('null: unclassified (ranked as C).'),
    lastCountedDate: calendarDate.nullable().describe('When a count was last resolved; null: never counted.'),
    nextCountDate: calendarDate.describe("Last counted date + the class's frequency (C's when unclassified); today when never counted."),
    isOverdue: z.boolean().describe('The next count date is today or earlier.'),
    currentQty: integer.describe('On hand over all its stock lines at the location.'),
    unitCost: z.number().nullable(),
    value: z.number().nullable().describe('currentQty × unitCost (null without a cost).'),
    recentVariances: integer.describe('Accepted counts that corrected its on hand at the location in the last 90 days.'),
    lastVarianceAt: dateTime.nullable().describe('When the last of those was resolved.'),
    reasons: z.array(z.enum(['OVERDUE', 'NEVER_COUNTED', 'RECENT_VARIANCE'])).describe('Why it is suggested (empty: next by the schedule only).'),
  })
  .meta({ id: 'CycleCountSuggestion' });

const suggestionsAnswer = z
  .object({
    type: z.literal('suggestions'),
    suggestions: z.array(suggestion).describe('This page of the ranking.'),
    count: integer.describe('Products that could be suggested (a stock line at the location, in no open count line), in all pages.'),
    overdueCount: integer.describe('Of those, the overdue ones.'),
    pagination: z.object({ page: integer, pageSize: integer, total: integer, totalPages: integer }),
  })
  .meta({ id: 'CycleCountSuggestions' });

export const cycleCountAnswer = (): z.ZodType => z.union([productsAnswer, batchesAnswer, variancesAnswer, suggestionsAnswer, abcConfigAnswer]).meta({ id: 'CycleCountView', description: 'The answer of the mode asked for.' });

const earlierCount = z.object({ countedQty: integer, expectedQty: integer, countedAt: dateTime, countedBy: z.string() }).meta({ id: 'CycleCountEarlierCount' });

const countLine = z
  .object({
    id: z.string(),
    productMasterId: z.string(),
    sku: z.string(),
    productName: z.string(),
    lotId: z.string().nullable(),
    lotCode: z.string().nullable(),
    expiryDate: calendarDate.nullable(),
    binId: z.string().nullable(),
    binCode: z.string().nullable(),
    stockLineId: z.string().nullable().describe('null: a found line with no stock line.'),
    snapshotQty: integer.describe('On hand when the batch was made (0 for a found line).'),
    found: z.boolean().describe('Added by a count: the snapshot did not have it.'),
    countedQty: integer.nullable(),
    expectedQty: integer.nullable().describe('On hand at the moment of the count: the snapshot plus every movement since.'),
    varianceQty: integer.nullable().describe('countedQty - expectedQty.'),
    countedAt: dateTime.nullable(),
    countedBy: z.string().nullable(),
    history: z.array(earlierCount).describe('Earlier counts recounts replaced, oldest first.'),
  })
  .meta({ id: 'CycleCountLine' });

export const batchRow = z
  .object({
    id: z.string(),
    locationId: z.string(),
    status: z.enum(['IN_PROGRESS', 'COMPLETED', 'CANCELLED']),
    assigneeId: z.string().nullable(),
    createdAt: dateTime,
    itemCount: integer.describe('Lines to count, found lines included.'),
  })
  .meta({ id: 'CycleCountBatchRow' });

export const batchAnswer = batchRow
  .extend({
    createdBy: z.string(),
    updatedAt: dateTime,
    completedAt: dateTime.nullable(),
    cancelledAt: dateTime.nullable(),
    lines: z.array(countLine).describe('At most 2000, by bin, SKU and lot.'),
  })
  .meta({ id: 'CycleCountBatch' });

export const batchesAnswer = z
  .object({
    type: z.literal('batches'),
    batches: z.array(batchRow).describe('This page, newest first.'),
    count: integer.describe('Batches matching the filters in all pages.'),
    pagination: z.object({ page: integer, pageSize: integer, total: integer, totalPages: integer }),
  })
  .meta({ id: 'CycleCountBatches' });

export const blindSheet = z
  .object({
    locationId: z.string(),
    batchId: z.string().nullable(),
    lines: z.array(
      z
        .object({
          lineId: z.string().nullable().describe("The batch's line to record the count on (null on a location's sheet)."),
          stockLineId: z.string().nullable(),
          binId: z.string().nullable(),
          binCode: z.string().nullable(),
          productMasterId: z.string(),
          sku: z.string(),
          productName: z.string(),
          lotId: z.string().nullable(),
          lotCode: z.string().nullable(),
          expiryDate: calendarDate.nullable(),
        })
        .meta({ id: 'CycleCountSheetLine', description: 'Where to look and what; no quantity, by design.' }),
    ),
    pagination: z.object({ page: integer, pageSize: integer, total: integer, totalPages: integer }),
  })
  .meta({ id: 'CycleCountSheet' });

export const variancesAnswer = z
  .object({
    type: z.literal('to-resolve'),
    lines: z.array(
      z
        .object({
          lineId: z.string(),
          batchId: z.string(),
          productMasterId: z.string(),
          sku: z.string(),
          productName: z.string(),
          lotId: z.string().nullable(),
          lotCode: z.string().nullable(),
          binId: z.string().nullable(),
          binCode: z.string().nullable(),
          expectedQty: integer.describe('On hand at the moment of the count: the snapshot plus every movement since.'),
          countedQty: integer,
          varianceQty: integer.describe('countedQty - expectedQty.'),
          unitCost: z.number().nullable(),
          varianceValue: z.number().nullable().describe('varianceQty × unitCost (null without a cost).'),
          countedAt: dateTime,
        })
        .meta({ id: 'CycleCountVariance' }),
    ),
    count: integer,
    pagination: z.object({ page: integer, pageSize: integer, total: integer, totalPages: integer }),
  })
  .meta({ id: 'CycleCountVariances' });

export const resolveAnswer = z
  .object({
    resolutions: z.array(
      z.object({
        lineId: z.string(),
        action: z.enum(['ACCEPT', 'REJECT']),
        correctionQty: integer.nullable().describe('The change written to on hand (0: the count matched; null: rejected).'),
        stockLineId: z.string().nullable(),
        transactionId: z.string().nullable().describe('The COUNT_CORRECTION ledger row.'),
      }),
    ),
  })
  .meta({ id: 'CycleCountResolveResult' });

const accuracyFigures = {
  countedLines: integer.describe('Count lines of COMPLETED batches counted in the period (each by its last count).'),
  withinTolerance: integer.describe("Of those, the lines whose variance is within the organization's tolerance (exact counts included)."),
  exactLines: integer.describe('Of those, the lines counted exactly as expected.'),
  accuracyPercent: z.number().nullable().describe('withinTolerance / countedLines × 100, two decimals (null: nothing counted).'),
};

export const accuracyAnswer = z
  .object({
    locationId: z.string().nullable().describe('The location measured (null: every location).'),
    from: calendarDate.describe('First day of the period (UTC).'),
    to: calendarDate.describe('Last day of the period (UTC, inclusive).'),
    tolerance,
    overall: z.object(accuracyFigures).meta({ id: 'CycleCountAccuracyFigures' }),
    byClass: z
      .array(z.object({ abcClass: z.enum(['A', 'B', 'C']).nullable().describe('null: unclassified products.'), ...accuracyFigures }).meta({ id: 'CycleCountAccuracyByClass' }))
      .describe("A, B, C and unclassified, always the four; the product's class at the location now."),
    byLocation: z
      .array(z.object({ locationId: z.string(), locationCode: z.string(), locationName: z.string(), ...accuracyFigures }).meta({ id: 'CycleCountAccuracyByLocation' }))
      .describe('The locations with counted lines in the period, by code.'),
  })
  .meta({ id: 'CycleCountAccuracy' });
