import { executeTransferRecommendation } from '../../../services/transfers/recommendations/execute-recommendation.js';
import { type GeneratedRecommendations, generateTransferRecommendations } from '../../../services/transfers/recommendations/generate-recommendations.js';
import { approveTransferRecommendation, rejectTransferRecommendation } from '../../../services/transfers/recommendations/recommendations.js';
import { GENERATED_SHOWN } from '../../../contracts/transfers/recommendations/recommendations.js';
import { builder } from '../../builder.js';
import { TransferRecommendationType } from './transfer-recommendation.js';

const GeneratedType = builder.objectRef<GeneratedRecommendations>('TransferRecommendationGeneration').implement({
  description: 'What a generation proposed: new PENDING recommendations, and PENDING ones it refreshed instead of duplicating.',
  fields: (t) => ({
    success: t.exposeBoolean('success', { description: 'Always true when the generation ran.' }),
    created: t.exposeInt('created', { description: 'New recommendations.' }),
    updated: t.exposeInt('updated', { description: 'PENDING recommendations of the same product, source and destination that were refreshed instead.' }),
    total: t.exposeInt('total', { description: 'Recommendations this generation proposed, new and refreshed (created + updated).' }),
    recommendations: t.field({
      type: [TransferRecommendationType],
      description:
        `The first ${GENERATED_SHOWN} recommendations this generation proposed (new and refreshed), most pressing first (then by product, destination and source); ` +
        'all of them are PENDING: page the rest with transferRecommendations(status: "PENDING").',
      resolve: (result) => result.recommendations,
    }),
  }),
});

const GenerateInput = builder.inputType('GenerateTransferRecommendationsInput', {
  description: 'What to look at and how to judge a move.',
  fields: (t) => ({
    locationId: t.id({ description: "Only moves into or out of this location (VALIDATION_ERROR on locationId when it is not the organization's)." }),
    productMasterId: t.id({ description: "Only this product (VALIDATION_ERROR on productMasterId when it is not the organization's)." }),
    minStockDifferencePct: t.float({ description: "Least gap between the two locations as a fraction (0 to 1) of the source's available stock (default 0)." }),
    requirePositiveROI: t.boolean({ description: 'Keep only moves with estimatedROI above 0 (needs unitMargin).' }),
    unitMargin: t.float({ description: 'Profit per unit sold (above 0), for estimatedROI.' }),
  }),
});

const idArg = { required: true, description: 'Recommendation id.' } as const;
const canApprove = { permission: 'transfers.approve' } as const;

builder.mutationFields((t) => ({
  generateTransferRecommendations: t.field({
    refusals: ['ValidationError'],
    type: GeneratedType,
    description: 'Finds locations in deficit and in surplus per product and proposes PENDING moves between them (refreshing an identical PENDING one instead of adding a duplicate).',
    authScopes: { permission: 'transfers.write' },
    args: { input: t.arg({ type: GenerateInput, description: 'Filters and ROI settings (all optional).' }) },
    resolve: (_parent, args, ctx) =>
      generateTransferRecommendations(ctx, { ...args.input, locationId: args.input?.locationId?.toString(), productMasterId: args.input?.productMasterId?.toString() }),
  }),
  approveTransferRecommendation: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: TransferRecommendationType,
    description: 'PENDING → APPROVED (approvedAt, approvedBy); any other state, an overdue PENDING one included, is refused (INVALID_STATE).',
    authScopes: canApprove,
    args: { id: t.arg.id(idArg), comment: t.arg.string({ description: 'Why (at most 2000 characters).' }) },
    resolve: (_parent, args, ctx) => approveTransferRecommendation(ctx, String(args.id), { comment: args.comment }),
  }),
  rejectTransferRecommendation: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: TransferRecommendationType,
    description: 'PENDING → REJECTED, recording who and why; any other state is refused (INVALID_STATE).',
    authScopes: canApprove,
    args: { id: t.arg.id(idArg), comment: t.arg.string({ description: 'Why (at most 2000 characters).' }) },
    resolve: (_parent, args, ctx) => rejectTransferRecommendation(ctx, String(args.id), { comment: args.comment }),
  }),
  executeTransferRecommendation: t.field({
    refusals: ['NotFoundError', 'ConflictError', 'InsufficientStockError'],
    type: TransferRecommendationType,
    description:
      'APPROVED → EXECUTED, exactly once: creates and ships an inventory transfer for the quantity (stock leaves the source through the ledger) and links it (transferId). ' +
      'Any other state: INVALID_STATE; not enough available stock at the source: INSUFFICIENT_STOCK, and it stays APPROVED.',
    authScopes: { permission: 'transfers.execute' },
    args: { id: t.arg.id(idArg) },
    resolve: (_parent, args, ctx) => executeTransferRecommendation(ctx, String(args.id)),
  }),
}));
