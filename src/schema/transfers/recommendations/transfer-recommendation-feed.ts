import { recommendationChanges } from '../../../services/transfers/recommendations/recommendation-feed.js';
import { builder } from '../../builder.js';
import { TransferRecommendationType } from './transfer-recommendation.js';

builder.subscriptionFields((t) => ({
  transferRecommendationChanged: t.field({
    type: TransferRecommendationType,
    description:
      'Follows the organization\'s transfer recommendations over graphql-ws: each one created or changed (generated again, approved, rejected, executed, expired by the sweep) after the subscription started, as it is then.',
    authScopes: { permission: 'transfers.read' },
    subscribe: (_parent, _args, ctx) => recommendationChanges(ctx),
    resolve: (row) => row,
  }),
}));
