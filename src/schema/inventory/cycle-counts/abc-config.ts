import { builder } from '../../builder.js';
import { cycleCountAbcUpdate } from '../../../contracts/inventory/cycle-counts/abc-config.js';
import { contractInput, parseInput } from '../../contract-input.js';
import { abcConfig, type AbcConfig, countTolerance, type Tolerance, updateCycleCountAbc } from '../../../services/inventory/cycle-counts/abc-config.js';
import type { Reclassification } from '../../../services/inventory/cycle-counts/abc-reclassify.js';

const CYCLE_COUNT = { permission: 'inventory.cyclecount' } as const;

export const CycleCountAbcConfigType = builder.objectRef<AbcConfig>('CycleCountAbcConfig').implement({
  description: "The organization's ABC classification: each class's share of movement value and how often it is counted.",
  fields: (t) => ({
    aPercent: t.exposeInt('aPercent', { description: 'Share of the movement value class A takes, in percent.' }),
    bPercent: t.exposeInt('bPercent', { description: 'Share of the movement value class B takes, in percent.' }),
    cPercent: t.exposeInt('cPercent', { description: 'Share of the movement value class C takes, in percent (the three add up to 100).' }),
    aFrequencyDays: t.exposeInt('aFrequencyDays', { description: 'Days between two counts of a class A product.' }),
    bFrequencyDays: t.exposeInt('bFrequencyDays', { description: 'Days between two counts of a class B product.' }),
    cFrequencyDays: t.exposeInt('cFrequencyDays', { description: 'Days between two counts of a class C (or unclassified) product.' }),
  }),
});

export const ToleranceType = builder.objectRef<Tolerance>('CycleCountTolerance').implement({
  description: 'Variances within any of these are accepted by themselves when a batch completes.',
  fields: (t) => ({
    units: t.exposeInt('units', { description: 'At most this many units either way.' }),
    percent: t.exposeFloat('percent', { description: 'At most this percent of the expected quantity.' }),
    value: t.expose('value', { type: 'Decimal', description: 'Worth at most this much (units × unit cost; products with a cost only), with 4 decimals as unit costs are.' }),
  }),
});

const ReclassificationType = builder.objectRef<Reclassification>('AbcReclassification').implement({
  description: "The outcome of ranking a location's products by the value of their outflows.",
  fields: (t) => ({
    locationId: t.exposeID('locationId', { description: 'The location reclassified.' }),
    from: t.expose('from', { type: 'DateTime', description: 'Start of the period read.' }),
    to: t.expose('to', { type: 'DateTime', description: 'End of the period read (now).' }),
    productsRanked: t.exposeInt('productsRanked', { description: 'Products ranked: every product with a stock line or an inventory level at the location.' }),
    changed: t.exposeInt('changed', { description: 'Products whose class is now another one (unclassified before counts).' }),
    countA: t.exposeInt('countA', { description: 'Products now in class A.' }),
    countB: t.exposeInt('countB', { description: 'Products now in class B.' }),
    countC: t.exposeInt('countC', { description: 'Products now in class C.' }),
  }),
});

const AbcUpdateResultType = builder.objectRef<Awaited<ReturnType<typeof updateCycleCountAbc>>>('CycleCountAbcUpdateResult').implement({
  description: 'The ABC configuration after a change, and the reclassification when one was asked for.',
  fields: (t) => ({
    config: t.field({ type: CycleCountAbcConfigType, description: 'The configuration now in effect.', resolve: (r) => r.config }),
    tolerance: t.field({ type: ToleranceType, description: 'The tolerance now in effect.', resolve: (r) => r.tolerance }),
    reclassification: t.field({ type: ReclassificationType, nullable: true, description: 'The reclassification (null when none was asked for).', resolve: (r) => r.reclassification }),
  }),
});

const AbcUpdateInput = contractInput('CycleCountAbcUpdateInput', cycleCountAbcUpdate, {
  description: 'Fields of the ABC configuration to change (the others keep their value), and an optional reclassification of a location.',
  types: { 'reclassify.locationId': 'ID', 'tolerance.value': 'Decimal' },
  names: { reclassify: 'AbcReclassifyInput', tolerance: 'CycleCountToleranceInput' },
  descriptions: { reclassify: "Which location's products to rank, over how many days.", tolerance: 'The tolerance fields to change.' },
});

builder.queryFields((t) => ({
  cycleCountTolerance: t.field({
    type: ToleranceType,
    description: "The organization's count tolerance (0, 0, 0 until it sets one: only exact counts are within it).",
    authScopes: CYCLE_COUNT,
    resolve: (_parent, _args, ctx) => countTolerance(ctx),
  }),
  cycleCountAbcConfig: t.field({
    type: CycleCountAbcConfigType,
    description: "The organization's ABC configuration (80/15/5 percent and every 30/90/180 days until it sets one).",
    authScopes: CYCLE_COUNT,
    resolve: (_parent, _args, ctx) => abcConfig(ctx),
  }),
}));

builder.mutationFields((t) => ({
  updateCycleCountAbc: t.field({
    refusals: ['ValidationError'],
    type: AbcUpdateResultType,
    description:
      'Changes the ABC configuration (percents adding up to 100, frequencies positive whole days) and, with reclassify, sets the ABC class of every ' +
      "product at a location from the value of its outflows over a period; one transaction.",
    authScopes: CYCLE_COUNT,
    args: { input: t.arg({ type: AbcUpdateInput, required: true, description: 'The change.' }) },
    resolve: (_parent, args, ctx) => updateCycleCountAbc(ctx, parseInput(cycleCountAbcUpdate, args.input)),
  }),
}));
