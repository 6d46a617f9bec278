import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../builder.js';
import { contractArgs, contractInput, parseInput } from '../../contract-input.js';
import { instantsAsText } from '../instant-arguments.js';
import { eventValueFields, externalEventCreate, externalEventListQuery, externalEventUpdate } from '../../../contracts/forecasting/events/external-event.js';
import {
  createExternalEvent,
  deleteExternalEvent,
  eventValue,
  externalEventWindow,
  type ExternalEventValue,
  getExternalEvent,
  listExternalEvents,
  updateExternalEvent,
} from '../../../services/forecasting/events/external-events.js';
import { canReadForecasts, canWriteForecasts } from '../forecast-scopes.js';
import { NodeRef } from '../../node/node-interface.js';
import { positionCursors, windowConnection } from '../../window-connection.js';
import { DEFAULT_PAGE_SIZE } from '../forecast-window.js';

const canRead = canReadForecasts;
const canWrite = canWriteForecasts;

export const ExternalEventTypeEnum = builder.enumType('ExternalEventType', {
  description: 'What kind of outside influence on demand an event is.',
  values: {
    PROMOTION: { description: 'A promotion or campaign.' },
    PRICE_CHANGE: { description: 'A change of price.' },
    HOLIDAY: { description: 'A public or commercial holiday.' },
    WEATHER: { description: 'A weather event or season.' },
    BOOKING: { description: 'A known large order or wholesale booking.' },
    MACRO: { description: 'A macro-economic change.' },
    OTHER: { description: 'Anything else.' },
  } as const,
});

export const StackingModeEnum = builder.enumType('StackingMode', {
  description: 'How an event lift combines with other lifts over the same period.',
  values: {
    MULTIPLICATIVE: { description: 'Lifts multiply: (1 + a) × (1 + b).' },
    ADDITIVE: { description: 'Lifts add: 1 + a + b.' },
  } as const,
});

const ExternalEventValueRef = builder.objectRef<ExternalEventValue>('ExternalEventValue').implement({
  description: 'How much an event lifts or lowers demand.',
  fields: (t) => ({
    liftPct: t.exposeFloat('liftPct', { nullable: true, description: 'Demand change as a fraction, from -0.99 to 5 (0.2 = +20 %).' }),
    stackingMode: t.field({
      type: StackingModeEnum,
      nullable: true,
      description: 'How the lift combines with other lifts (MULTIPLICATIVE when a lift is given without one).',
      resolve: (value) => value.stackingMode,
    }),
    description: t.exposeString('description', { nullable: true, description: 'Free text about the value.' }),
  }),
});

export const ExternalEventType = builder.prismaObject('ExternalEvent', {
  interfaces: [NodeRef],
  description: 'Something outside the demand history, such as a promotion or a holiday, that lifts or lowers forecast demand over a period.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    name: t.exposeString('name', { description: 'Event name.' }),
    type: t.field({ type: ExternalEventTypeEnum, description: 'Kind of event.', resolve: (event) => event.type }),
    startsAt: t.expose('startsAt', { type: 'DateTime', description: 'When the event starts.' }),
    endsAt: t.expose('endsAt', { type: 'DateTime', description: 'When the event ends (not before startsAt).' }),
    value: t.field({
      type: ExternalEventValueRef,
      nullable: true,
      description: 'The effect on demand, or null when none is recorded.',
      resolve: (event) => eventValue(event),
    }),
    bookedQuantity: t.exposeInt('bookedQuantity', {
      nullable: true,
      description: "Units of a confirmed wholesale booking line (a BOOKING event the booking keeps, docs/bookings.md): forecasts add them to the week instead of a percent; null for every other event. Such an event goes when its booking is fulfilled or cancelled and cannot be changed or deleted here.",
    }),
    isGlobal: t.exposeBoolean('isGlobal', {
      description: 'The event applies to every product of the organization (it has no productMaster). Events never reach other organizations.',
    }),
    isOrgWide: t.exposeBoolean('isOrgWide', {
      description: 'The event applies at every location of the organization (it has no location).',
    }),
    productMaster: t.relation('productMaster', { nullable: true, description: 'The one product the event is limited to, if any.' }),
    location: t.relation('location', { nullable: true, description: 'The one location the event is limited to, if any.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the event was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the event was last changed.' }),
  }),
});

const ExternalEventValueInput = contractInput('ExternalEventValueInput', eventValueFields, {
  description: 'How much an event lifts or lowers demand.',
  types: { stackingMode: StackingModeEnum },
});

const ExternalEventCreateInput = contractInput('ExternalEventCreateInput', externalEventCreate, {
  description: 'A new external event.',
  types: { type: ExternalEventTypeEnum, value: ExternalEventValueInput },
});

const ExternalEventUpdateInput = contractInput('ExternalEventUpdateInput', externalEventUpdate, {
  description: 'Changes to an event; absent fields stay as they are, within value too (liftPct alone keeps the description); null clears value, productMasterId or locationId.',
  types: { type: ExternalEventTypeEnum, value: ExternalEventValueInput },
});

const idArg = { required: true, description: 'Event id.' } as const;

builder.queryFields((t) => {
  // The filters of GET /api/forecast/events, from its contract.
  const filters = () => contractArgs(t, externalEventListQuery, { types: { type: ExternalEventTypeEnum } });
  const filterOf = (args: Record<string, unknown>) => parseInput(externalEventListQuery, instantsAsText(args, ['from', 'to']));
  return {
    externalEvents: t.connection(
      {
        type: ExternalEventType,
        description: 'External events overlapping the window [from, to], soonest first, as a Relay connection.',
        authScopes: canRead,
        extensions: positionCursors(),
        args: filters(),
        resolve: (_parent, args, ctx, info) =>
          windowConnection(args, DEFAULT_PAGE_SIZE, (window) =>
            externalEventWindow(ctx, filterOf(args), window, queryFromInfo({ context: ctx, info, typeName: 'ExternalEvent', path: ['edges', 'node'] })),
          ),
      },
      {
        name: 'ExternalEventConnection',
        description: 'A page of external events with the cursors to fetch the next or previous page.',
        fields: (c) => ({ totalCount: c.int({ description: 'Events matching the window and filters.', resolve: (page) => page.totalCount }) }),
      },
    ),
    allExternalEvents: t.prismaField({
      type: ['ExternalEvent'],
      description: "REST adapter's list (GET /api/forecast/events): every external event overlapping the window [from, to] in one list, soonest first.",
      deprecationReason: "The REST adapter's unpaged list (GET /api/forecast/events); GraphQL clients use the connection `externalEvents`.",
      authScopes: canRead,
      args: filters(),
      resolve: (query, _parent, args, ctx) => listExternalEvents(ctx, filterOf(args), query),
    }),
  };
});

builder.queryFields((t) => ({
  externalEvent: t.prismaField({
    type: 'ExternalEvent',
    description: "One external event by id; null when it is unknown or not the organization's.",
    orNullWhenAbsent: true,
    authScopes: canRead,
    args: { id: t.arg.id(idArg) },
    resolve: (query, _parent, args, ctx) => getExternalEvent(ctx, String(args.id), query),
  }),
}));

builder.mutationFields((t) => ({
  createExternalEvent: t.prismaField({
    refusals: ['ValidationError'],
    type: 'ExternalEvent',
    description: 'Creates an external event.',
    authScopes: canWrite,
    args: { input: t.arg({ type: ExternalEventCreateInput, required: true, description: 'The event.' }) },
    resolve: (query, _parent, args, ctx) => createExternalEvent(ctx, parseInput(externalEventCreate, args.input), query),
  }),
  updateExternalEvent: t.prismaField({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: 'ExternalEvent',
    description: "Changes an external event; absent fields stay as they are. A confirmed booking's BOOKING event (bookedQuantity set): ConflictError INVALID_STATE.",
    authScopes: canWrite,
    args: { id: t.arg.id(idArg), input: t.arg({ type: ExternalEventUpdateInput, required: true, description: 'The changes.' }) },
    resolve: (query, _parent, args, ctx) => updateExternalEvent(ctx, String(args.id), parseInput(externalEventUpdate, args.input), query),
  }),
  deleteExternalEvent: t.prismaField({
    refusals: ['NotFoundError', 'ConflictError'],
    type: 'ExternalEvent',
    description: "Deletes an external event and returns it as it was. A confirmed booking's BOOKING event (bookedQuantity set): ConflictError INVALID_STATE.",
    authScopes: canWrite,
    args: { id: t.arg.id(idArg) },
    resolve: (query, _parent, args, ctx) => deleteExternalEvent(ctx, String(args.id), query),
  }),
}));
