import { z } from 'zod';
import { mustBe } from '../../parse.js';
import { anyCaseEnum, flag } from '../../query-values.js';

export const SCENARIO_TYPES = ['BASELINE', 'PROMOTIONAL', 'CONSERVATIVE', 'OPTIMISTIC', 'CHANNEL_LAUNCH', 'CUSTOM'] as const;
export const SCENARIO_STATUSES = ['DRAFT', 'PUBLISHED', 'ARCHIVED'] as const;

/** The most entries an assumptions list may hold (categories, channels, events). */
export const MAX_ASSUMPTION_ENTRIES = 1000;

const oneOf = (values: readonly string[]) => (issue: { input?: unknown }) => (issue.input === undefined ? 'Required' : `One of ${values.join(', ')}`);

const name = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(300, 'At most 300 characters');
const type = z.enum(SCENARIO_TYPES, { error: oneOf(SCENARIO_TYPES) });
const description = z.string({ error: mustBe('text') }).max(2000, 'At most 2000 characters').nullish();
const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required');

// The interface bounds globalLiftPct; a single category's or channel's lift is held to the events' bounds,
// so that no adjustment can take demand to zero or below.
const globalLiftPct = z.number({ error: mustBe('a number') }).min(-1, 'Must be at least -1').max(5, 'Must be at most 5');
const liftPct = z.number({ error: mustBe('a number') }).min(-0.99, 'Must be at least -0.99').max(5, 'Must be at most 5');

const list = <T extends z.ZodType>(entry: T) =>
  z.array(entry, { error: mustBe('a list') }).max(MAX_ASSUMPTION_ENTRIES, `At most ${MAX_ASSUMPTION_ENTRIES} entries`);

/** Each entry of a list at most once (by `keyOf`); a repeat is named by its index (and `field`, for objects). */
const distinct =
  <T>(keyOf: (entry: T) => string, field?: string) =>
  (entries: T[] | null | undefined, issue: z.RefinementCtx) => {
    const seen = new Set<string>();
    entries?.forEach((entry, index) => {
      const key = keyOf(entry);
      if (seen.has(key)) issue.addIssue({ code: 'custom', path: field ? [index, field] : [index], message: 'Listed more than once' });
      seen.add(key);
    });
  };

/** The assumptions object itself; `scenarioAssumptions` is the field of a body (absent or null: none). */
export const scenarioAssumptionFields = z
  .strictObject({
    narrative: z.string({ error: mustBe('text') }).max(10_000, 'At most 10000 characters').nullish().meta({ description: 'Free text: what the scenario assumes and why.' }),
    globalLiftPct: globalLiftPct.nullish().meta({ description: 'Demand change applied last, to everything, as a fraction from -1 to 5 (0.1 = +10 %).' }),
    categoryAdjustments: list(
      z
        .strictObject({ categoryId: id.meta({ description: 'A category of the organization.' }), liftPct: liftPct.meta({ description: 'Demand change as a fraction, from -0.99 to 5.' }) })
        .meta({ description: 'A demand change for the products of one category.' }),
    )
      .superRefine(distinct((a) => a.categoryId, 'categoryId'))
      .nullish()
      .meta({ description: 'Demand change per category of the organization (liftPct from -0.99 to 5); each category at most once.' }),
    channelAdjustments: list(
      z
        .strictObject({ channelId: id.meta({ description: 'A channel of the organization.' }), liftPct: liftPct.meta({ description: 'Demand change as a fraction, from -0.99 to 5.' }) })
        .meta({ description: 'A demand change for one sales channel.' }),
    )
      .superRefine(distinct((a) => a.channelId, 'channelId'))
      .nullish()
      .meta({ description: 'Demand change per channel of the organization (liftPct from -0.99 to 5); each channel at most once.' }),
    includedEventIds: list(id)
      .superRefine(distinct((id: string) => id))
      .nullish()
      .meta({ description: "External events of the organization this scenario applies; absent or null: every event in the forecast's window, [] none." }),
  })
  .meta({ description: 'What a scenario assumes; ids must be of the organization.' });

export const scenarioAssumptions = scenarioAssumptionFields.nullish().meta({ description: 'What the scenario assumes; null clears it.' });

export type ScenarioAssumptions = NonNullable<z.output<typeof scenarioAssumptions>>;

/** Body of POST /api/forecast/scenarios (and of PUT, which replaces every updatable field) and input of createForecastScenario. */
export const forecastScenarioCreate = z.strictObject({
  name: name.meta({ description: 'Scenario name.' }),
  type: type.meta({ description: 'What the scenario is for.' }),
  description: description.meta({ description: 'Optional free text about the scenario.' }),
  assumptions: scenarioAssumptions.meta({ description: 'What the scenario assumes (absent or null: nothing).' }),
});

/** Body of PATCH /api/forecast/scenarios/{id} and input of updateForecastScenario. */
export const forecastScenarioUpdate = z
  .strictObject({
    name: name.optional().meta({ description: 'New name.' }),
    type: type.optional().meta({ description: 'New type.' }),
    description: description.meta({ description: 'New description; null clears it.' }),
    assumptions: scenarioAssumptions.meta({ description: 'New assumptions, replacing the old as a whole; null clears them.' }),
  })
  .meta({ description: 'Absent fields stay as they are; assumptions are replaced as a whole; null clears description or assumptions.' });

/** Query of GET /api/forecast/scenarios and arguments of forecastScenarios. */
export const forecastScenarioListQuery = z.object({
  status: anyCaseEnum(SCENARIO_STATUSES).meta({ description: 'Only scenarios in this state (ARCHIVED lists archived ones without includeArchived).' }),
  type: anyCaseEnum(SCENARIO_TYPES).meta({ description: 'Only scenarios of this type.' }),
  includeArchived: flag.meta({ description: 'Include archived scenarios (default false).' }),
});
