import { SHIPMENTS_DEFAULT_LIMIT, SHIPMENTS_MAX_LIMIT, shipmentListQuery } from '../../contracts/shipments/shipment-queries.js';
import { shipmentCreate, shipmentDeliver, shipmentLineInput, shipmentMove, shipmentPack, shipmentShip } from '../../contracts/shipments/shipments.js';
import { cancelShipment } from '../../services/shipments/shipment-cancel.js';
import { createShipment } from '../../services/shipments/shipment-create.js';
import { deliverShipment } from '../../services/shipments/shipment-deliver.js';
import { packShipment } from '../../services/shipments/shipment-pack.js';
import { pickShipment } from '../../services/shipments/shipment-pick.js';
import { getShipment, listShipments } from '../../services/shipments/shipment-queries.js';
import { shipShipment } from '../../services/shipments/shipment-ship.js';
import { builder } from '../builder.js';
import { contractArgs, contractInput, parseInput } from '../contract-input.js';
import { positionCursors, windowConnection } from '../window-connection.js';
import { ShipmentRef } from './shipment-types.js';

const canRead = { permission: 'shipping.read' } as const;
const canWrite = { permission: 'shipping.write' } as const;

type Page = Awaited<ReturnType<typeof listShipments>>;

const PageRef = builder.objectRef<Page>('ShipmentPage').implement({
  description: 'One page of shipments, newest first.',
  fields: (t) => ({
    shipments: t.field({ type: [ShipmentRef], description: 'Shipments on this page.', resolve: (p) => p.shipments }),
    total: t.exposeInt('total', { description: 'Shipments matching the filters in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Shipments skipped before this page.' }),
  }),
});

const LineInput = contractInput('ShipmentLineInput', shipmentLineInput, { description: 'An order line to ship and how many of its units.', types: { orderLineId: 'ID' } });
const CreateInput = contractInput('ShipmentCreateInput', shipmentCreate, {
  description: 'A shipment of a sales order, or of a whole DRAFT inventory transfer (exactly one of the two).',
  types: { salesOrderId: 'ID', transferId: 'ID', lines: [LineInput] },
});
const MoveInput = contractInput('ShipmentMoveInput', shipmentMove, { description: 'The shipment to move.', types: { id: 'ID' } });
const PackInput = contractInput('ShipmentPackInput', shipmentPack, { description: 'The shipment and its packages.', types: { id: 'ID' } });
const ShipInput = contractInput('ShipmentShipInput', shipmentShip, { description: 'The shipment, its carrier and tracking number.', types: { id: 'ID' } });
const DeliverInput = contractInput('ShipmentDeliverInput', shipmentDeliver, { description: 'The shipment and when it was delivered.', types: { id: 'ID' } });

type QueryFieldBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0];
const filterArgs = (t: QueryFieldBuilder) => contractArgs(t, shipmentListQuery, { omit: ['limit', 'offset'] });

builder.queryFields((t) => ({
  shipments: t.connection(
    {
      type: ShipmentRef,
      description: "Shipments with filters, newest first, as a Relay connection (NOT_FOUND for a filter location that is not the organization's).",
      authScopes: canRead,
      extensions: positionCursors(SHIPMENTS_MAX_LIMIT),
      args: filterArgs(t),
      resolve: (_parent, args, ctx) =>
        windowConnection(args, SHIPMENTS_DEFAULT_LIMIT, (window) => listShipments(ctx, parseInput(shipmentListQuery, args), window).then((page) => ({ items: page.shipments, total: page.total }))),
    },
    {
      name: 'ShipmentConnection',
      description: 'A page of shipments with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Shipments matching the filters, in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  shipmentsPage: t.field({
    type: PageRef,
    description: "REST adapter's shape (GET /api/shipments): a page of shipments by limit and offset, newest first.",
    deprecationReason: "The REST adapter's page shape (GET /api/shipments); GraphQL clients use the connection `shipments`.",
    authScopes: canRead,
    args: contractArgs(t, shipmentListQuery),
    resolve: (_parent, args, ctx) => listShipments(ctx, parseInput(shipmentListQuery, args)),
  }),
  shipment: t.field({
    type: ShipmentRef,
    description: "One shipment with its lines and lots; null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: canRead,
    args: { id: t.arg.id({ required: true, description: 'The shipment.' }) },
    resolve: (_parent, args, ctx) => getShipment(ctx, String(args.id)),
  }),
}));

const move = (description: string) => ({ refusals: ['ValidationError', 'NotFoundError', 'ConflictError'] as const, type: ShipmentRef, description, authScopes: canWrite });
const stockMove = (description: string) => ({ ...move(description), refusals: ['ValidationError', 'NotFoundError', 'ConflictError', 'InsufficientStockError'] as const });

builder.mutationFields((t) => ({
  createShipment: t.field({
    refusals: ['ValidationError', 'ConflictError', 'InsufficientStockError'],
    type: ShipmentRef,
    description:
      "Creates a RESERVED shipment of a sales order (all its unshipped units, or the lines and quantities given), taking over the order's reservation and reserving " +
      'first-expiring lots first. Unknown order or line, or more than remains to ship: ValidationError; a closed order or nothing left: ConflictError; short of stock: InsufficientStockError.',
    authScopes: canWrite,
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The shipment.' }) },
    resolve: (_parent, args, ctx) => createShipment(ctx, parseInput(shipmentCreate, args.input)),
  }),
  pickShipment: t.field({
    ...stockMove('RESERVED → PICKED: every reserved unit picked from its lot and bin. Any other state: ConflictError INVALID_STATE, nothing changed.'),
    args: { input: t.arg({ type: MoveInput, required: true, description: 'The shipment.' }) },
    resolve: (_parent, args, ctx) => pickShipment(ctx, parseInput(shipmentMove, args.input)),
  }),
  packShipment: t.field({
    ...move('PICKED → PACKED with the package count and weight. Any other state: ConflictError INVALID_STATE, nothing changed.'),
    args: { input: t.arg({ type: PackInput, required: true, description: 'The shipment and its packages.' }) },
    resolve: (_parent, args, ctx) => packShipment(ctx, parseInput(shipmentPack, args.input)),
  }),
  shipShipment: t.field({
    ...stockMove('PACKED → SHIPPED with the carrier and tracking number: the units leave the location through the ledger. Any other state: ConflictError INVALID_STATE, nothing changed.'),
    args: { input: t.arg({ type: ShipInput, required: true, description: 'The shipment and its carrier.' }) },
    resolve: (_parent, args, ctx) => shipShipment(ctx, parseInput(shipmentShip, args.input)),
  }),
  deliverShipment: t.field({
    ...move('SHIPPED → DELIVERED on the date given (default now). Any other state: ConflictError INVALID_STATE, nothing changed.'),
    args: { input: t.arg({ type: DeliverInput, required: true, description: 'The shipment and its delivery time.' }) },
    resolve: (_parent, args, ctx) => deliverShipment(ctx, parseInput(shipmentDeliver, args.input)),
  }),
  cancelShipment: t.field({
    ...stockMove('RESERVED, PICKED or PACKED → CANCELLED: reservations released, picked units back on the shelf. Any other state: ConflictError INVALID_STATE, nothing changed.'),
    args: { input: t.arg({ type: MoveInput, required: true, description: 'The shipment.' }) },
    resolve: (_parent, args, ctx) => cancelShipment(ctx, parseInput(shipmentMove, args.input)),
  }),
}));
