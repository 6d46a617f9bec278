import { builder } from '../../builder.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import { learnedLiftQuery } from '../../../contracts/forecasting/events/learned-lift-query.js';
import { BASELINE_REACH, BASELINE_SIDE_WEEKS, LIFT_CONFIDENCE } from '../../../services/forecasting/events/lift-estimation.js';
import { type LearnedLift, listLearnedLifts, type LiftOccurrenceRow } from '../../../services/forecasting/events/learned-lifts.js';
import { LiftPoolEnum } from '../demand/demand-forecast.js';
import { MAX_HISTORY_WEEKS } from '../../../services/forecasting/demand/demand-series.js';
import { MAX_OCCURRENCE_WEEKS } from '../../../services/forecasting/events/event-occurrences.js';
import { ExternalEventTypeEnum, ExternalEventType } from './external-event.js';
import { canReadForecasts } from '../forecast-scopes.js';
import { learning } from '../../engine-cost.js';
import { LocationType } from '../../master-data/location.js';
import { ProductType } from '../../products/product.js';
import { linked } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';

const LearnedLiftRef = builder.objectRef<LearnedLift>('LearnedEventLift').implement({
  description: 'A lift learned from the past occurrences of one kind of event: what forecasts use for an event of the pool that states no lift.',
  fields: (t) => ({
    type: t.field({ type: ExternalEventTypeEnum, description: 'Kind of event.', resolve: (l) => l.type }),
    pool: t.field({ type: LiftPoolEnum, description: 'TYPE: every past event of the kind; LINK: those linked to productMasterId and locationId.', resolve: (l) => l.pool }),
    productMasterId: t.exposeID('productMasterId', { nullable: true, description: 'LINK: the product the events are linked to (null: global events); TYPE: null.' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'LINK: the product the events are linked to (null: global events, or another grouping).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    locationId: t.exposeID('locationId', { nullable: true, description: 'LINK: the location the events are linked to (null: org-wide events); TYPE: null.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'LINK: the location the events are linked to (null: org-wide events, or another grouping).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    liftPct: t.exposeFloat('liftPct', { description: 'The median of the occurrences\' lifts, as a fraction (0.4 = +40 %).' }),
    lowerPct: t.exposeFloat('lowerPct', { nullable: true, description: `Lower end of the distribution-free interval of the median (at least ${LIFT_CONFIDENCE * 100} %); null under 4 occurrences.` }),
    upperPct: t.exposeFloat('upperPct', { nullable: true, description: 'Upper end of that interval; null under 4 occurrences.' }),
    confidenceLevel: t.exposeFloat('confidenceLevel', { nullable: true, description: "That interval's exact coverage (binomial); null with it." }),
    occurrences: t.exposeInt('occurrences', { description: 'Past events pooled.' }),
    weeks: t.exposeInt('weeks', { description: 'History weeks they cover.' }),
    usable: t.exposeBoolean('usable', { description: 'Enough occurrences for forecasts to use it (minOccurrences).' }),
    method: t.exposeString('method', { description: 'How it was estimated (LOCAL_BASELINE_MEDIAN).' }),
  }),
});

const OccurrenceRef = builder.objectRef<LiftOccurrenceRow>('EventLiftOccurrence').implement({
  description: "One past event's observed lift: its scope's units over the weeks it covers against the local event-free baseline.",
  fields: (t) => ({
    eventId: t.exposeID('eventId', { description: 'The past event.' }),
    event: t.field({ type: ExternalEventType, nullable: true, authScopes: readScopesOf('ExternalEvent'), description: 'The past event (null only when it was deleted since).', resolve: (row, _args, ctx) => linked(ctx, 'externalEvent', row.eventId) }),
    name: t.exposeString('name', { description: 'Its name.' }),
    type: t.field({ type: ExternalEventTypeEnum, description: 'Its kind.', resolve: (o) => o.type }),
    startsAt: t.expose('startsAt', { type: 'DateTime', description: 'When it started.' }),
    endsAt: t.expose('endsAt', { type: 'DateTime', description: 'When it ended.' }),
    productMasterId: t.exposeID('productMasterId', { nullable: true, description: 'Its product link (null: global).' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'Its product link (null: global).', resolve: (row, _args, ctx) => linked(ctx, 'product', row.productMasterId) }),
    locationId: t.exposeID('locationId', { nullable: true, description: 'Its location link (null: org-wide).' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'Its location link (null: org-wide).', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    weeks: t.exposeInt('weeks', { description: 'Weeks it covers inside the history.' }),
    actualUnits: t.exposeFloat('actualUnits', { description: 'Units of every series it reaches (all channels) over those weeks.' }),
    baselineUnits: t.exposeFloat('baselineUnits', {
      description: `Counterfactual units a week: the median of the nearest event-free weeks, up to ${BASELINE_SIDE_WEEKS} on each side within ${BASELINE_REACH} weeks.`,
    }),
    baselineWeeks: t.exposeInt('baselineWeeks', { description: 'Weeks that median was taken over.' }),
    liftPct: t.exposeFloat('liftPct', { description: 'actualUnits ÷ (baselineUnits × weeks) − 1.' }),
  }),
});

type LearnedPage = Awaited<ReturnType<typeof listLearnedLifts>>;

const LearnedLiftsRef = builder.objectRef<LearnedPage>('LearnedEventLifts').implement({
  description: 'The lifts learned from past events, and the occurrences they pool.',
  fields: (t) => ({
    lifts: t.field({ type: [LearnedLiftRef], description: 'Per type its TYPE pool then its LINK pools, types in alphabetical order.', resolve: (p) => p.lifts }),
    occurrences: t.field({ type: [OccurrenceRef], description: 'The occurrences, oldest first.', resolve: (p) => p.occurrences }),
    before: t.exposeString('before', { nullable: true, description: 'Learned from the history before this week (Monday); null: all of it.' }),
    learnedFrom: t.expose('learnedFrom', { type: 'Date',
      nullable: true,
      description: `First week (Monday) of the history learned from: the last ${MAX_HISTORY_WEEKS} weeks of the organization's history before \`before\`; null without history.`,
    }),
    maxEvents: t.exposeInt('maxEvents', {
      description: `At most this many events are learned from (the most recent in those weeks); an event over ${MAX_OCCURRENCE_WEEKS} weeks is no occurrence.`,
    }),
    minOccurrences: t.exposeInt('minOccurrences', { description: 'Occurrences a pool needs before forecasts use it.' }),
    method: t.exposeString('method', { description: 'How occurrence lifts are estimated and pooled (docs/forecasting.md, "Learned event lifts").' }),
  }),
});

builder.queryFields((t) => ({
  learnedEventLifts: t.field({
    extensions: learning,
    type: LearnedLiftsRef,
    description:
      'What past events teach: per event type (and per product/location link) the median lift of its past occurrences in the demand history. Forecasts use it for events without a stated lift (what GET /api/forecast/events/learned-lifts serves).',
    authScopes: canReadForecasts,
    args: contractArgs(t, learnedLiftQuery, { types: { type: ExternalEventTypeEnum } }),
    resolve: (_parent, args, ctx) => listLearnedLifts(ctx, parseInput(learnedLiftQuery, args)),
  }),
}));
