import { transferCostInput, transferCostQuery } from '../../../contracts/transfers/recommendations/recommendations.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { listTransferCosts, setTransferCost } from '../../../services/transfers/recommendations/transfer-costs.js';
import { builder } from '../../builder.js';
import { NodeRef } from '../../node/node-interface.js';
import { LocationType } from '../../master-data/location.js';
import { linked } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';

const TransferCostType = builder.prismaObject('TransferCost', {
  interfaces: [NodeRef],
  description: 'What moving one unit from one location to another costs (this direction only).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    sourceLocationId: t.exposeID('sourceLocationId', { description: 'Where units leave.' }),
    sourceLocation: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location units leave (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.sourceLocationId) }),
    destLocationId: t.exposeID('destLocationId', { description: 'Where units arrive.' }),
    destLocation: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location units arrive at (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.destLocationId) }),
    costPerUnit: t.exposeFloat('costPerUnit', { description: 'Cost per unit moved.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the cost was first set.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the cost last changed.' }),
  }),
});

const CostListType = builder.objectRef<Awaited<ReturnType<typeof listTransferCosts>>>('TransferCostList').implement({
  description: 'The costs set per location pair, and what any other pair costs.',
  fields: (t) => ({
    costs: t.field({ type: [TransferCostType], description: 'Costs set per pair and direction.', resolve: (list) => list.costs }),
    defaultCostPerUnit: t.exposeFloat('defaultCostPerUnit', { description: 'Cost per unit of a pair without its own (TRANSFER_DEFAULT_UNIT_COST).' }),
  }),
});

const CostInput = contractInput('TransferCostInput', transferCostInput, { description: 'The cost of moving one unit from one location to another.' });

builder.queryFields((t) => ({
  transferCosts: t.field({
    type: CostListType,
    description: 'Costs of moving stock between locations, used by the ROI of transfer recommendations.',
    authScopes: { permission: 'transfers.read' },
    args: contractArgs(t, transferCostQuery),
    resolve: (_parent, args, ctx) => listTransferCosts(ctx, parseInput(transferCostQuery, args)),
  }),
}));

builder.mutationFields((t) => ({
  setTransferCost: t.field({
    refusals: ['ValidationError'],
    type: TransferCostType,
    description: 'Sets the cost per unit of one direction of a location pair (creating or replacing it).',
    authScopes: { permission: 'transfers.write' },
    args: { input: t.arg({ type: CostInput, required: true, description: 'The pair and its cost.' }) },
    resolve: (_parent, args, ctx) => setTransferCost(ctx, parseInput(transferCostInput, args.input)),
  }),
}));
