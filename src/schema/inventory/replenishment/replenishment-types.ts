import type { ReplenishmentConfig, ReplenishmentRecord } from '../../../generated/prisma/client.js';
import type { EffectiveReplenishmentConfig } from '../../../services/inventory/replenishment/replenishment-config.js';
import { builder } from '../../builder.js';
import { readScopesOf } from '../../link-scopes.js';
import { LocationType } from '../../master-data/location.js';
import { NodeRef } from '../../node/node-interface.js';
import { ProductType } from '../../products/product.js';
import { PurchaseOrderType } from '../../supply/purchase-orders.js';
import { SupplierType } from '../../supply/suppliers.js';
import { linked } from '../../record-loaders.js';
import { InventoryTransferRef } from '../../transfers/inventory-transfers/inventory-transfer-types.js';

export const ReplenishmentMethodEnum = builder.enumType('ReplenishmentMethod', {
  description: 'How a location is replenished.',
  values: {
    MIN_MAX: { description: "Order up to the inventory level's maximum when stock falls to its reorder point." },
    FORECAST_COVER: { description: 'Order what covers forecast demand over the review period plus the safety stock days.' },
  } as const,
});

export const ReplenishmentStatusEnum = builder.enumType('ReplenishmentStatus', {
  description: 'Where a replenishment record is: PROPOSED → APPROVED → ORDERED, or CANCELLED (from PROPOSED or APPROVED).',
  values: {
    PROPOSED: { description: 'Recorded from a suggestion; may be approved or cancelled.' },
    APPROVED: { description: 'Approved; may be converted (ordered) or cancelled.' },
    ORDERED: { description: 'Converted: a draft purchase order (purchaseOrderId) or a DRAFT inventory transfer (transferId) was created. Final.' },
    CANCELLED: { description: 'Cancelled before anything was ordered. Final.' },
  } as const,
});

export const ReplenishmentSourceTypeEnum = builder.enumType('ReplenishmentSourceType', {
  description: 'Where replenished units come from.',
  values: {
    SUPPLIER: { description: 'A supplier: converting makes a purchase order.' },
    LOCATION: { description: 'Another location of the organization: converting makes an inventory transfer.' },
  } as const,
});

type Settings = Pick<EffectiveReplenishmentConfig, 'locationId' | 'method' | 'reviewPeriodDays' | 'safetyStockDays' | 'defaultSourceLocationId' | 'defaultSupplierId'>;

const SettingsRef = builder.interfaceRef<Settings>('ReplenishmentSettings').implement({
  description: 'How a location is replenished: the method, the review period, the safety stock and the default source.',
  fields: (t) => ({
    locationId: t.exposeID('locationId', { description: 'The location configured.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    method: t.field({ type: ReplenishmentMethodEnum, description: 'MIN_MAX or FORECAST_COVER.', resolve: (row) => row.method }),
    reviewPeriodDays: t.exposeInt('reviewPeriodDays', { description: 'Days between reviews.' }),
    safetyStockDays: t.exposeInt('safetyStockDays', { description: 'Days of demand kept as safety stock.' }),
    defaultSourceLocationId: t.exposeID('defaultSourceLocationId', { nullable: true, description: 'The location it is replenished from by default (null: none).' }),
    defaultSourceLocation: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The default source location (null: none).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.defaultSourceLocationId) }),
    defaultSupplierId: t.exposeID('defaultSupplierId', { nullable: true, description: 'The supplier it orders from by default (null: none).' }),
    defaultSupplier: t.field({ type: SupplierType, nullable: true, authScopes: readScopesOf('Supplier'), description: 'The default supplier (null: none).', resolve: (row, _args, ctx) => linked(ctx, 'supplier', row.defaultSupplierId) }),
  }),
});

export const ReplenishmentConfigRef = builder.objectRef<ReplenishmentConfig>('ReplenishmentConfig').implement({
  interfaces: [NodeRef, SettingsRef],
  description: "A location's stored replenishment configuration.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was first stored.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    updatedByType: t.exposeString('updatedByType', { description: 'USER or API_KEY.' }),
    updatedBy: t.exposeString('updatedBy', { description: "The id of the user or API key that last changed it." }),
  }),
});

export const EffectiveConfigRef = builder.objectRef<EffectiveReplenishmentConfig>('LocationReplenishmentConfig').implement({
  interfaces: [SettingsRef],
  description: "The replenishment configuration that applies to a location: the stored one, or the defaults (MIN_MAX, every 7 days, no safety stock, no default source).",
  fields: (t) => ({
    stored: t.exposeBoolean('stored', { description: 'Whether a configuration is stored (false: these are the defaults).' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true, description: 'When the stored configuration last changed (null: defaults).' }),
    updatedBy: t.exposeString('updatedBy', { nullable: true, description: 'Who last changed it, a user or API key id (null: defaults).' }),
    config: t.field({
      type: ReplenishmentConfigRef,
      nullable: true,
      description: 'The stored configuration (null: defaults).',
      resolve: (row) => (row.stored ? (row as unknown as ReplenishmentConfig) : null),
    }),
  }),
});

export const ReplenishmentRecordRef = builder.objectRef<ReplenishmentRecord>('ReplenishmentRecord').implement({
  interfaces: [NodeRef],
  description: 'A suggestion to order or move units of a product to a location, and what became of it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    productMasterId: t.exposeID('productMasterId', { description: 'The product.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    locationId: t.exposeID('locationId', { description: 'The location replenished.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location replenished (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    quantity: t.exposeInt('quantity', { description: 'Units to order or move.' }),
    sourceType: t.field({ type: ReplenishmentSourceTypeEnum, description: 'SUPPLIER or LOCATION.', resolve: (row) => row.sourceType }),
    supplierId: t.exposeID('supplierId', { nullable: true, description: 'The supplier (sourceType SUPPLIER).' }),
    supplier: t.field({ type: SupplierType, nullable: true, authScopes: readScopesOf('Supplier'), description: 'The supplier (null with sourceType LOCATION).', resolve: (row, _args, ctx) => linked(ctx, 'supplier', row.supplierId) }),
    sourceLocationId: t.exposeID('sourceLocationId', { nullable: true, description: 'The location the units come from (sourceType LOCATION).' }),
    sourceLocation: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The source location (null with sourceType SUPPLIER).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.sourceLocationId) }),
    needBy: t.expose('needBy', { type: 'Date', description: 'Date the units are needed by.' }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why, in words.' }),
    status: t.field({ type: ReplenishmentStatusEnum, description: 'PROPOSED, APPROVED, ORDERED or CANCELLED.', resolve: (row) => row.status }),
    purchaseOrderId: t.exposeID('purchaseOrderId', { nullable: true, description: 'The purchase order the conversion created (ORDERED, sourceType SUPPLIER).' }),
    purchaseOrder: t.field({ type: PurchaseOrderType, nullable: true, authScopes: readScopesOf('PurchaseOrder'), description: 'The purchase order the conversion created.', resolve: (row, _args, ctx) => linked(ctx, 'purchaseOrder', row.purchaseOrderId) }),
    transferId: t.exposeID('transferId', { nullable: true, description: 'The inventory transfer the conversion created (ORDERED, sourceType LOCATION).' }),
    transfer: t.field({ type: InventoryTransferRef, nullable: true, authScopes: readScopesOf('InventoryTransfer'), description: 'The inventory transfer the conversion created.', resolve: (row, _args, ctx) => linked(ctx, 'inventoryTransfer', row.transferId) }),
    comment: t.exposeString('comment', { nullable: true, description: 'The comment of the last move that gave one.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was recorded.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    createdByType: t.exposeString('createdByType', { description: 'USER or API_KEY.' }),
    createdBy: t.exposeString('createdBy', { description: "The recording user's or API key's id." }),
    approvedAt: t.expose('approvedAt', { type: 'DateTime', nullable: true, description: 'When it was approved.' }),
    approvedBy: t.exposeString('approvedBy', { nullable: true, description: 'Who approved it (user or API key id).' }),
    orderedAt: t.expose('orderedAt', { type: 'DateTime', nullable: true, description: 'When it was converted.' }),
    orderedBy: t.exposeString('orderedBy', { nullable: true, description: 'Who converted it (user or API key id).' }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true, description: 'When it was cancelled.' }),
    cancelledBy: t.exposeString('cancelledBy', { nullable: true, description: 'Who cancelled it (user or API key id).' }),
  }),
});
