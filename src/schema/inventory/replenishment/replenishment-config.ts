import { replenishmentConfigQuery, replenishmentConfigUpdate } from '../../../contracts/inventory/replenishment/replenishment-config.js';
import { replenishmentConfig, updateReplenishmentConfig } from '../../../services/inventory/replenishment/replenishment-config.js';
import { builder } from '../../builder.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { EffectiveConfigRef, ReplenishmentConfigRef, ReplenishmentMethodEnum } from './replenishment-types.js';

const canRead = { permission: 'replenishment.read' } as const;
const canWrite = { permission: 'replenishment.write' } as const;

const UpdateInput = contractInput('ReplenishmentConfigInput', replenishmentConfigUpdate, {
  description: "Fields of a location's replenishment configuration to set; absent ones keep their value (or the default).",
  types: { locationId: 'ID', defaultSourceLocationId: 'ID', defaultSupplierId: 'ID', method: ReplenishmentMethodEnum },
});

builder.queryFields((t) => ({
  replenishmentConfig: t.field({
    type: EffectiveConfigRef,
    description: "The replenishment configuration of a location: the stored one, else the defaults (NOT_FOUND for a location that is not the organization's).",
    authScopes: canRead,
    args: contractArgs(t, replenishmentConfigQuery, { types: { locationId: 'ID' } }),
    resolve: (_parent, args, ctx) => replenishmentConfig(ctx, parseInput(replenishmentConfigQuery, args).locationId),
  }),
}));

builder.mutationFields((t) => ({
  updateReplenishmentConfig: t.field({
    refusals: ['ValidationError', 'NotFoundError'],
    type: ReplenishmentConfigRef,
    description:
      "Stores a location's replenishment configuration (created on first use); needs replenishment.write and a tenant administrator (an ADMIN user or an API key " +
      'with the * scope), else FORBIDDEN. At most one default source; setting one clears the other. NOT_FOUND for a location or supplier that is not the organization\'s.',
    authScopes: canWrite,
    args: { input: t.arg({ type: UpdateInput, required: true, description: 'The configuration.' }) },
    resolve: (_parent, args, ctx) => updateReplenishmentConfig(ctx, parseInput(replenishmentConfigUpdate, args.input)),
  }),
}));
