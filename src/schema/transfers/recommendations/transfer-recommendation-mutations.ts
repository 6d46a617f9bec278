import { executeTransferRecommendation } from '../../../services/transfers/recommendations/execute-recommendation.js';
import { type GeneratedRecommendations, generateTransferRecommendations } from '../../../services/transfers/recommendations/generate-recommendations.js';
import { approveTransferRecommendation, rejectTransferRecommendation } from '../../../services/transfers/recommendations/recommendations.js';
import { GENERATED_SHOWN, generateRecommendations } from '../../../contracts/transfers/recommendations/recommendations.js';
import { contractInput, parseInput } from '../../contract-input.js';
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

const GenerateInput = contractInput('GenerateTransferRecommendationsInput', generateRecommendations, { description: 'What to look at and how to judge a move.' });

const idArg = { required: true, description: 'Recommendation id.' } as const;
const canApprove = { permission: 'transfers.approve' } as const;

builder.mutationFields((t) => ({
  generateTransferRecommendations: t.field({
    refusals: ['ValidationError'],
    type: GeneratedType,
    description: 'Finds locations in deficit and in surplus per product and proposes PENDING moves between them (refreshing an identical PENDING one instead of adding a duplicate).',
    authScopes: { permission: 'transfers.write' },
    args: { input: t.arg({ type: GenerateInput, description: 'Filters and ROI settings (all optional).' }) },
    resolve: (_parent, args, ctx) => generateTransferRecommendations(ctx, parseInput(generateRecommendations, args.input ?? {})),
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
