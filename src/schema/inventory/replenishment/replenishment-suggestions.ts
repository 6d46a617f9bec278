import { replenishmentSuggestionsInput } from '../../../contracts/inventory/replenishment/replenishment-suggestions.js';
import { replenishmentSuggestions, type ReplenishmentSuggestions } from '../../../services/inventory/replenishment/replenishment-suggestions.js';
import { builder } from '../../builder.js';
import { contractInput, parseInput } from '../../contract-input.js';
import { RecommendationRef } from '../../planning/recommendations/planning-recommendations.js';
import { ReplenishmentMethodEnum } from './replenishment-types.js';

const canRead = { permission: 'replenishment.read' } as const;

const SuggestionsInput = contractInput('ReplenishmentSuggestionsInput', replenishmentSuggestionsInput, {
  description: "A location to replenish, and optionally the products and the settings that override its replenishment configuration for this run.",
  types: { locationId: 'ID', productMasterIds: ['ID'], supplierId: 'ID', sourceLocationId: 'ID', method: ReplenishmentMethodEnum },
});

const SuggestionsRef = builder.objectRef<ReplenishmentSuggestions>('ReplenishmentSuggestions').implement({
  description: 'What to order, move or expedite at a location, with the settings the run used (nothing is written).',
  fields: (t) => ({
    locationId: t.exposeID('locationId', { description: 'The location replenished.' }),
    method: t.field({ type: ReplenishmentMethodEnum, description: 'The method used: the one asked, else the stored or default configuration.', resolve: (s) => s.method }),
    reviewPeriodDays: t.exposeInt('reviewPeriodDays', { nullable: true, description: "The review period used; null: each level's replenishment period (no configuration stored, none asked)." }),
    safetyStockDays: t.exposeInt('safetyStockDays', { description: 'Days of demand kept as safety stock.' }),
    supplierId: t.exposeID('supplierId', { nullable: true, description: 'The supplier orders come from, when one was asked or configured.' }),
    sourceLocationId: t.exposeID('sourceLocationId', { nullable: true, description: 'The location moves come from, when one was asked or configured.' }),
    configStored: t.exposeBoolean('configStored', { description: 'Whether the location has a stored replenishment configuration (else the defaults applied).' }),
    suggestions: t.field({ type: [RecommendationRef], description: 'The suggestions, most urgent first: ORDER and MOVE ones become records through createReplenishmentRecords; EXPEDITE ones name a purchase order to hurry.', resolve: (s) => s.suggestions }),
  }),
});

builder.queryFields((t) => ({
  replenishmentSuggestions: t.field({
    type: SuggestionsRef,
    description:
      "Runs the planning projection for a location (or some of its products) with its replenishment configuration, or the settings given for this run: what to order, move or expedite. Writes nothing. NOT_FOUND for a location, product, supplier or source location that is not the organization's.",
    authScopes: canRead,
    args: { input: t.arg({ type: SuggestionsInput, required: true, description: 'The location, products and settings.' }) },
    resolve: (_parent, args, ctx) => replenishmentSuggestions(ctx, parseInput(replenishmentSuggestionsInput, args.input)),
  }),
}));
