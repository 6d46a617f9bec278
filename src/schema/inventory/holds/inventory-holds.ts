import { inventoryHoldPlace, inventoryHoldRelease } from '../../../contracts/inventory/holds/inventory-hold.js';
import { HOLDS_DEFAULT_LIMIT, HOLDS_MAX_LIMIT, inventoryHoldListQuery } from '../../../contracts/inventory/holds/inventory-hold-queries.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { builder } from '../../builder.js';
import { placeHold } from '../../../services/inventory/holds/hold-placing.js';
import { getHold, listHolds } from '../../../services/inventory/holds/hold-queries.js';
import { releaseHold } from '../../../services/inventory/holds/hold-release.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { InventoryHoldRef, InventoryHoldScopeEnum } from './inventory-hold-types.js';

const canRead = { permission: 'inventory.read' } as const;
const canWrite = { permission: 'inventory.write' } as const;

type Page = Awaited<ReturnType<typeof listHolds>>;

const PageRef = builder.objectRef<Page>('InventoryHoldPage').implement({
  description: 'One page of inventory holds, newest first.',
  fields: (t) => ({
    holds: t.field({ type: [InventoryHoldRef], description: 'Holds on this page, with their lines.', resolve: (p) => p.holds }),
    total: t.exposeInt('total', { description: 'Holds matching the filters in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Holds skipped before this page.' }),
  }),
});

const PlaceInput = contractInput('InventoryHoldPlaceInput', inventoryHoldPlace, {
  description: 'A hold to place: what it covers, how many units, why and until when.',
  types: { scope: InventoryHoldScopeEnum },
});

const ReleaseInput = contractInput('InventoryHoldReleaseInput', inventoryHoldRelease, { description: 'All or part of a hold to release.' });

builder.queryFields((t) => ({
  inventoryHolds: t.connection(
    {
      type: InventoryHoldRef,
      description: "Inventory holds with filters, newest first, as a Relay connection; holds past their expiry are released first (NOT_FOUND for a filter id that is not the organization's).",
      authScopes: canRead,
      extensions: positionCursors(HOLDS_MAX_LIMIT),
      args: contractArgs(t, inventoryHoldListQuery, { omit: ['limit', 'offset'] }),
      resolve: (_parent, args, ctx) =>
        windowConnection(args, HOLDS_DEFAULT_LIMIT, (window) => listHolds(ctx, parseInput(inventoryHoldListQuery, args), window).then((page) => ({ items: page.holds, total: page.total }))),
    },
    {
      name: 'InventoryHoldConnection',
      description: 'A page of inventory holds with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Holds matching the filters, in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  inventoryHoldsPage: t.field({
    type: PageRef,
    description: "REST adapter's shape (GET /api/inventory/holds): a page of inventory holds by limit and offset, newest first.",
    deprecationReason: "The REST adapter's page shape (GET /api/inventory/holds); GraphQL clients use the connection `inventoryHolds`.",
    authScopes: canRead,
    args: contractArgs(t, inventoryHoldListQuery),
    resolve: (_parent, args, ctx) => listHolds(ctx, parseInput(inventoryHoldListQuery, args)),
  }),
  inventoryHold: t.field({
    type: InventoryHoldRef,
    description: "One hold with its lines (released first when past its expiry); null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: canRead,
    args: { id: t.arg.id({ required: true, description: 'The hold.' }) },
    resolve: (_parent, args, ctx) => getHold(ctx, String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  placeInventoryHold: t.field({
    refusals: ['ValidationError', 'InsufficientStockError'],
    type: InventoryHoldRef,
    description:
      'Places a hold: the units move from available to on hold on each covered stock line (HOLD ledger rows). INSUFFICIENT_STOCK, nothing written, when fewer units are available than asked (or none).',
    authScopes: canWrite,
    args: { input: t.arg({ type: PlaceInput, required: true, description: 'The hold.' }) },
    resolve: (_parent, args, ctx) => placeHold(ctx, parseInput(inventoryHoldPlace, args.input)),
  }),
  releaseInventoryHold: t.field({
    refusals: ['ValidationError', 'ConflictError'],
    type: InventoryHoldRef,
    description: 'Releases all or part of an ACTIVE hold (RELEASE_HOLD ledger rows); RELEASED once it holds nothing. A hold that is not ACTIVE: INVALID_STATE.',
    authScopes: canWrite,
    args: { input: t.arg({ type: ReleaseInput, required: true, description: 'The release.' }) },
    resolve: (_parent, args, ctx) => releaseHold(ctx, parseInput(inventoryHoldRelease, args.input)),
  }),
}));
