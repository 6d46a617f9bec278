import { z } from 'zod';
import { GENERATED_SHOWN, RECOMMENDATION_STATUSES, TRANSFER_PRIORITIES } from '../../../src/contracts/transfers/recommendations/recommendations.js';
import { dateTime, integer, nullableString } from '../../common-responses.js';

const recommendationFields = {
  id: z.string(),
  productMasterId: z.string(),
  sourceLocationId: z.string(),
  destLocationId: z.string(),
  quantity: integer,
  priority: z.enum(TRANSFER_PRIORITIES),
  status: z.enum(RECOMMENDATION_STATUSES).describe('An overdue PENDING recommendation reads EXPIRED.'),
  reason: z.string(),
  estimatedROI: z.number().nullable().describe('unitMargin × unitsAtRisk − unitTransferCost × quantity; null when generated without unitMargin.'),
  unitMargin: z.number().nullable(),
  unitTransferCost: z.number(),
  unitsAtRisk: integer.describe('Units of the move the destination would otherwise fail to sell before a replenishment could arrive.'),
  expiresAt: dateTime.describe('When a PENDING recommendation becomes EXPIRED.'),
  createdAt: dateTime,
  updatedAt: dateTime,
  createdBy: z.string(),
  approvedAt: dateTime.nullable(),
  approvedBy: nullableString,
  approvalComment: nullableString,
  rejectedAt: dateTime.nullable(),
  rejectedBy: nullableString,
  rejectionComment: nullableString,
  executedAt: dateTime.nullable(),
  executedBy: nullableString,
  transferId: nullableString.describe('The inventory transfer execute created and shipped.'),
};

export const transferRecommendation = z.object(recommendationFields).meta({ id: 'TransferRecommendation' });

export const recommendationPage = z
  .object({
    recommendations: z.array(transferRecommendation),
    total: integer,
    limit: integer,
    offset: integer,
    data: z.array(transferRecommendation).describe('The same list as recommendations (the machine-readable variant).'),
  })
  .meta({ id: 'TransferRecommendationPage' });

export const recommendationEnvelope = z
  .object({ recommendation: transferRecommendation, ...recommendationFields })
  .meta({ id: 'TransferRecommendationEnvelope', description: 'The recommendation under `recommendation` and as its own fields at the top level.' });

/** Approve, reject and execute: `success`, the decision under `recommendation`, and the whole recommendation at the top level. */
export const recommendationDecision = (id: string, decision: Record<string, z.ZodType>) =>
  z
    .object({ success: z.boolean(), recommendation: z.object({ id: z.string(), status: z.enum(RECOMMENDATION_STATUSES), ...decision }), ...recommendationFields })
    .meta({ id, description: '`recommendation` holds the decision (the reference shape); the recommendation\'s own fields follow at the top level (the machine-readable variant).' });

export const generatedRecommendations = z
  .object({
    success: z.boolean(),
    created: integer.describe('New recommendations.'),
    updated: integer.describe('PENDING recommendations of the same product, source and destination refreshed instead of duplicated.'),
    total: integer.describe('Recommendations proposed, new and refreshed (created + updated).'),
    recommendations: z
      .array(transferRecommendation)
      .max(GENERATED_SHOWN)
      .describe(`The first ${GENERATED_SHOWN} recommendations proposed, most pressing first (then by product, destination and source); the others are read from listUrl.`),
    listUrl: z.string().describe('The PENDING list (with the product filter of the generation), which holds every recommendation proposed: page it with limit and offset.'),
  })
  .meta({ id: 'TransferRecommendationGeneration' });

const transferCost = z
  .object({ id: z.string(), sourceLocationId: z.string(), destLocationId: z.string(), costPerUnit: z.number(), createdAt: dateTime, updatedAt: dateTime })
  .meta({ id: 'TransferCost' });

export const transferCostResponse = transferCost;

export const transferCostList = z
  .object({
    costs: z.array(transferCost),
    data: z.array(transferCost).describe('The same list as costs.'),
    defaultCostPerUnit: z.number().describe('Cost per unit of a pair without its own (TRANSFER_DEFAULT_UNIT_COST).'),
  })
  .meta({ id: 'TransferCostList' });
