import { allocationPolicyInput } from '../../../contracts/inventory/channel-atp/allocation-policy.js';
import { builder } from '../../builder.js';
import { contractInput, parseInput } from '../../contract-input.js';
import { deleteAllocationPolicy, listAllocationPolicies, countAllocationPolicies, setAllocationPolicy } from '../../../services/inventory/channel-atp/allocation-policies.js';
import { NodeRef } from '../../node/node-interface.js';

export const AllocationModeEnum = builder.enumType('AllocationMode', {
  description: 'How an allocation policy limits what a channel may promise at a location.',
  values: {
    SHARE: { description: 'A fraction (sharePct, 0 to 1) of the available stock, rounded down.' },
    FIXED: { description: 'A fixed quantity (fixedQuantity), never more than the available stock.' },
  } as const,
});

export const AllocationPolicyType = builder.prismaObject('ChannelAllocationPolicy', {
  interfaces: [NodeRef],
  name: 'AllocationPolicy',
  description: 'How much of a location\'s available stock one sales channel may promise, and when its ATP counts as low.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    channelId: t.exposeID('channelId', { description: 'The channel.' }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    mode: t.field({ type: AllocationModeEnum, description: 'SHARE or FIXED.', resolve: (policy) => policy.mode }),
    sharePct: t.exposeFloat('sharePct', { nullable: true, description: 'With SHARE: the fraction of available stock, 0 to 1.' }),
    fixedQuantity: t.exposeInt('fixedQuantity', { nullable: true, description: 'With FIXED: the quantity, capped at available stock.' }),
    lowAtpThreshold: t.exposeInt('lowAtpThreshold', { description: 'ATP below this (and above 0) is LOW; default 0.' }),
    channel: t.relation('channel', { description: 'The channel.' }),
    location: t.relation('location', { description: 'The location.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the policy was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the policy was last changed.' }),
  }),
});

const SetAllocationPolicyInput = contractInput('SetAllocationPolicyInput', allocationPolicyInput, {
  description: 'The policy of a channel at a location; replaces the existing one of that pair.',
  types: { mode: AllocationModeEnum },
});

builder.queryFields((t) => ({
  allocationPolicies: t.prismaConnection({
    type: 'ChannelAllocationPolicy',
    cursor: 'id',
    description: 'The organization\'s channel allocation policies, by location and channel, as a Relay connection.',
    authScopes: { permission: 'inventory.read' },
    args: {
      locationId: t.arg.id({ description: 'Only policies at this location.' }),
      channelId: t.arg.id({ description: 'Only policies of this channel.' }),
    },
    totalCount: (_parent, args, ctx) => countAllocationPolicies(ctx, { locationId: args.locationId?.toString(), channelId: args.channelId?.toString() }),
    resolve: (query, _parent, args, ctx) =>
      listAllocationPolicies(ctx, { locationId: args.locationId?.toString(), channelId: args.channelId?.toString() }, query),
  }),
}));

builder.mutationFields((t) => ({
  setAllocationPolicy: t.prismaField({
    refusals: ['ValidationError', 'NotFoundError'],
    type: 'ChannelAllocationPolicy',
    description: 'Creates or replaces the allocation policy of a channel at a location.',
    authScopes: { permission: 'inventory.write' },
    args: { input: t.arg({ type: SetAllocationPolicyInput, required: true, description: 'The policy.' }) },
    resolve: (query, _parent, args, ctx) =>
      setAllocationPolicy(ctx, parseInput(allocationPolicyInput, args.input), query),
  }),
  deleteAllocationPolicy: t.prismaField({
    refusals: ['NotFoundError'],
    type: 'ChannelAllocationPolicy',
    description: 'Deletes an allocation policy and returns it as it was; the channel is then unrestricted at that location.',
    authScopes: { permission: 'inventory.write' },
    args: { id: t.arg.id({ required: true, description: 'Policy id.' }) },
    resolve: (query, _parent, args, ctx) => deleteAllocationPolicy(ctx, String(args.id), query),
  }),
}));
