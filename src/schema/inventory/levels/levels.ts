import { builder } from '../../builder.js';
import { AbcClass } from '../../../generated/prisma/enums.js';
import { inventoryLevelUpdate, inventoryLevelUpsert } from '../../../contracts/inventory/levels/inventory-level.js';
import { contractInput, parseInput } from '../../contract-input.js';
import {
  deleteInventoryLevel,
  listInventoryLevels, countInventoryLevels,
  productInventoryLevels,
  updateInventoryLevel,
  upsertInventoryLevel,
} from '../../../services/inventory/levels/levels.js';
import { ProductType } from '../../products/product.js';
import { NodeRef } from '../../node/node-interface.js';
import { BinType } from '../stock-lines/stock-line.js';
import { LocationType } from '../../master-data/location.js';
import { linked } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';

export const AbcClassEnum = builder.enumType(AbcClass, {
  name: 'AbcClass',
  description: 'ABC classification of a product at a location: A the most valuable movers, C the least.',
});

builder.prismaObject('InventoryLevel', {
  interfaces: [NodeRef],
  description:
    'Planning parameters of one product at one location (one level per product and location). Invariant: ' +
    'minQuantity <= reorderQuantity <= maxQuantity, all whole units of 0 or more.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    minQuantity: t.exposeInt('minQuantity', { description: 'Minimum (safety) stock in units.' }),
    reorderQuantity: t.exposeInt('reorderQuantity', { description: 'Reorder point in units: at or below it, replenish.' }),
    maxQuantity: t.exposeInt('maxQuantity', { description: 'Maximum stock in units: replenish up to it.' }),
    status: t.exposeString('status', { description: 'Status of the level (default Supported).' }),
    abcClass: t.field({ type: AbcClassEnum, nullable: true, description: 'ABC class, if set.', resolve: (level) => level.abcClass }),
    expectedLeadTimeDays: t.exposeInt('expectedLeadTimeDays', { nullable: true, description: 'Days from ordering to receiving.' }),
    replenishmentPeriodDays: t.exposeInt('replenishmentPeriodDays', { nullable: true, description: 'Days between replenishments.' }),
    forecastPeriodDays: t.exposeInt('forecastPeriodDays', { nullable: true, description: 'Days the forecast quantity covers.' }),
    forecastQuantity: t.exposeFloat('forecastQuantity', { nullable: true, description: 'Expected demand over the forecast period.' }),
    preferredBinLocationId: t.exposeID('preferredBinLocationId', { nullable: true, description: 'Preferred bin (a bin of this location).' }),
    preferredBin: t.field({ type: BinType, nullable: true, authScopes: readScopesOf('Bin'), description: 'The preferred bin (null without one).', resolve: (row, _args, ctx) => linked(ctx, 'bin', row.preferredBinLocationId) }),
    replenishmentLocationId: t.exposeID('replenishmentLocationId', { nullable: true, description: 'Location that replenishes this one.' }),
    replenishmentLocation: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location that replenishes this one (null without one).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.replenishmentLocationId) }),
    comments: t.exposeString('comments', { nullable: true, description: 'Free text.' }),
    product: t.relation('productMaster', { description: 'The product (read id, sku, name).' }),
    productMaster: t.relation('productMaster', { description: 'The same product (read id, globalSku, productName).' }),
    location: t.relation('location', { description: 'The location.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the level was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the level was last changed.' }),
  }),
});

builder.prismaObjectField(ProductType, 'inventoryLevels', (t) =>
  t.relation('inventoryLevels', {
    description: 'Inventory levels of the product at every location (needs inventory.read as well).',
    authScopes: { permission: 'inventory.read' },
    query: { orderBy: { id: 'asc' } },
  }),
);

const InventoryLevelInput = contractInput('InventoryLevelInput', inventoryLevelUpsert, {
  description:
    'The level of a product at a location: created when missing, otherwise updated (absent fields stay as they are). ' +
    'min <= reorder <= max must hold on the resulting values.',
  types: { abcClass: AbcClassEnum },
  deprecationReasons: { productId: 'Use productMasterId.' },
});

const InventoryLevelUpdateInput = contractInput('InventoryLevelUpdateInput', inventoryLevelUpdate, {
  description: 'Changes to a level; absent fields stay as they are. min <= reorder <= max must hold on the merged values.',
  types: { abcClass: AbcClassEnum },
});

const InventoryLevelDeleteResult = builder.objectRef<{ success: boolean; message: string }>('InventoryLevelDeleteResult').implement({
  description: 'Outcome of deleting an inventory level.',
  fields: (t) => ({
    success: t.exposeBoolean('success', { description: 'True when the level was deleted.' }),
    message: t.exposeString('message', { description: 'What happened, in words.' }),
  }),
});

// Pothos gives ids as string | number; the services take strings.
const str = (value: string | number | null | undefined) => (value == null ? null : String(value));

builder.queryFields((t) => ({
  inventoryLevels: t.prismaConnection({
    type: 'InventoryLevel',
    cursor: 'id',
    description: 'Inventory levels of the organization, optionally of one location and/or one product, as a Relay connection.',
    authScopes: { permission: 'inventory.read' },
    args: {
      locationId: t.arg.id({ description: 'Only levels at this location (404 when it is not the organization’s).' }),
      productMasterId: t.arg.id({ description: 'Only levels of this product (404 when it is not the organization’s).' }),
    },
    totalCount: (_parent, args, ctx) => countInventoryLevels(ctx, { locationId: str(args.locationId), productMasterId: str(args.productMasterId) }),
    resolve: (query, _parent, args, ctx) =>
      listInventoryLevels(ctx, { locationId: str(args.locationId), productMasterId: str(args.productMasterId) }, query),
  }),
  productInventoryLevels: t.prismaField({
    type: ['InventoryLevel'],
    description: "REST adapter's shape (GET /api/products/{id}/inventory-levels): inventory levels of one product at every location, one per location at most.",
    deprecationReason: "The REST adapter's list (GET /api/products/{id}/inventory-levels); GraphQL clients select `inventoryLevels` on `product(id:)`.",
    // Both permissions: scope maps are "any" at the top level, so the second one sits in a nested $all.
    authScopes: { $all: { permission: 'products.read', $all: { permission: 'inventory.read' } } },
    args: { productId: t.arg.id({ required: true, description: 'Product id.' }) },
    resolve: (query, _parent, args, ctx) => productInventoryLevels(ctx, String(args.productId), query),
  }),
}));

builder.mutationFields((t) => ({
  upsertInventoryLevel: t.prismaField({
    refusals: ['ValidationError', 'NotFoundError'],
    type: 'InventoryLevel',
    description: 'Creates the level of a product at a location, or updates the existing one.',
    authScopes: { permission: 'inventory.write' },
    args: { input: t.arg({ type: InventoryLevelInput, required: true, description: 'The level.' }) },
    resolve: (query, _parent, args, ctx) => upsertInventoryLevel(ctx, parseInput(inventoryLevelUpsert, args.input), query),
  }),
  updateInventoryLevel: t.prismaField({
    refusals: ['ValidationError', 'NotFoundError'],
    type: 'InventoryLevel',
    description: 'Changes an inventory level.',
    authScopes: { permission: 'inventory.write' },
    args: {
      id: t.arg.id({ required: true, description: 'Inventory level id.' }),
      input: t.arg({ type: InventoryLevelUpdateInput, required: true, description: 'The changes.' }),
    },
    resolve: (query, _parent, args, ctx) => updateInventoryLevel(ctx, String(args.id), parseInput(inventoryLevelUpdate, args.input), query),
  }),
  deleteInventoryLevel: t.field({
    refusals: ['NotFoundError'],
    type: InventoryLevelDeleteResult,
    description: 'Deletes an inventory level.',
    authScopes: { permission: 'inventory.write' },
    args: { id: t.arg.id({ required: true, description: 'Inventory level id.' }) },
    resolve: (_parent, args, ctx) => deleteInventoryLevel(ctx, String(args.id)),
  }),
}));
