import { builder } from '../../builder.js';
import { cycleCountAccuracyQuery, DEFAULT_ACCURACY_DAYS } from '../../../contracts/inventory/cycle-counts/accuracy-query.js';
import { contractArgs, parseInput } from '../../contract-input.js';
import { linked } from '../../record-loaders.js';
import { readScopesOf } from '../../link-scopes.js';
import { LocationType } from '../../master-data/location.js';
import { AbcClassEnum } from '../levels/levels.js';
import { ToleranceType } from './abc-config.js';
import {
  type AccuracyByClass,
  type AccuracyByLocation,
  type AccuracyFigures,
  type CycleCountAccuracy,
  cycleCountAccuracy,
} from '../../../services/inventory/cycle-counts/accuracy.js';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The four figures every level of the report has, on any type whose rows carry them. */
const figureFields = <T extends AccuracyFigures>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, T>) => ({
  countedLines: t.int({ description: 'Count lines of COMPLETED batches counted in the period (each by its last count).', resolve: (r) => r.countedLines }),
  withinTolerance: t.int({ description: "Of those, the lines whose variance is within the organization's tolerance (exact counts included).", resolve: (r) => r.withinTolerance }),
  exactLines: t.int({ description: 'Of those, the lines counted exactly as expected.', resolve: (r) => r.exactLines }),
  accuracyPercent: t.float({ nullable: true, description: 'withinTolerance / countedLines × 100, two decimals (null: nothing counted).', resolve: (r) => r.accuracyPercent }),
});

const FiguresType = builder.objectRef<AccuracyFigures>('CycleCountAccuracyFigures').implement({
  description: 'How many counted lines were within tolerance, and the share.',
  fields: (t) => figureFields(t),
});

const ByClassType = builder.objectRef<AccuracyByClass>('CycleCountAccuracyByClass').implement({
  description: "Record accuracy of one ABC class (the product's class at the location now).",
  fields: (t) => ({
    abcClass: t.field({ type: AbcClassEnum, nullable: true, description: 'The class (null: unclassified products).', resolve: (row) => row.abcClass }),
    ...figureFields(t),
  }),
});

const ByLocationType = builder.objectRef<AccuracyByLocation>('CycleCountAccuracyByLocation').implement({
  description: 'Record accuracy of one location.',
  fields: (t) => ({
    locationId: t.exposeID('locationId', { description: 'The location.' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location record.', resolve: (row, _args, ctx) => linked(ctx, 'location', row.locationId) }),
    locationCode: t.exposeString('locationCode', { description: "The location's code." }),
    locationName: t.exposeString('locationName', { description: "The location's name." }),
    ...figureFields(t),
  }),
});

const AccuracyType = builder.objectRef<CycleCountAccuracy>('CycleCountAccuracy').implement({
  description: "Inventory record accuracy: the share of counted lines whose count was within the organization's tolerance, over a period.",
  fields: (t) => ({
    locationId: t.exposeID('locationId', { nullable: true, description: 'The location measured (null: every location).' }),
    from: t.expose('from', { type: 'Date', description: 'First day of the period (UTC).' }),
    to: t.expose('to', { type: 'Date', description: 'Last day of the period (UTC, inclusive).' }),
    tolerance: t.field({ type: ToleranceType, description: 'The tolerance the lines were measured with: the organization\'s tolerance now.', resolve: (r) => r.tolerance }),
    overall: t.field({ type: FiguresType, description: 'Every counted line of the period.', resolve: (r) => r.overall }),
    byClass: t.field({ type: [ByClassType], description: 'By ABC class: A, B, C and unclassified, always the four.', resolve: (r) => r.byClass }),
    byLocation: t.field({ type: [ByLocationType], description: 'By location: those with counted lines in the period, by code.', resolve: (r) => r.byLocation }),
  }),
});

builder.queryFields((t) => ({
  cycleCountAccuracy: t.field({
    type: AccuracyType,
    description:
      "Inventory record accuracy: of the count lines of COMPLETED batches counted in the period (default the last " +
      `${DEFAULT_ACCURACY_DAYS} days), the share whose variance is within the organization's tolerance, overall, by ABC class and by location.`,
    authScopes: { permission: 'inventory.cyclecount' },
    args: contractArgs(t, cycleCountAccuracyQuery, { types: { locationId: 'ID' } }),
    resolve: (_parent, args, ctx) => cycleCountAccuracy(ctx, parseInput(cycleCountAccuracyQuery, args)),
  }),
}));
