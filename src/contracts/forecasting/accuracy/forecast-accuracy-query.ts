import { z } from 'zod';
import { MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { calendarDateText, windowWithin } from '../../date-times.js';
import { pagingShape } from '../../paging.js';
import { anyCaseEnum, flag, text, wholeNumberOr } from '../../query-values.js';
import { DEFAULT_HORIZON, MAX_HORIZON } from '../demand/forecast-query.js';

export const DEFAULT_ACCURACY_HORIZON = DEFAULT_HORIZON;

export const ACCURACY_SOURCES = ['IMPORTED', 'ENGINE', 'STORED'] as const;
export const ACCURACY_GROUPS = ['product', 'location', 'channel', 'method', 'total'] as const;
export type AccuracySource = (typeof ACCURACY_SOURCES)[number];
export type AccuracyGroup = (typeof ACCURACY_GROUPS)[number];

/** Groups per page. */
export const ACCURACY_PAGING = { limit: 50, max: 500 };
/** Series the ENGINE source replays in one request (each is fitted): one page of GET /api/forecast at its largest. */
export const ENGINE_MAX_SERIES = 100;

/** Query of GET /api/forecast/accuracy and arguments of forecastAccuracy. */
export const forecastAccuracyQuery = z
  .object({
    source: anyCaseEnum(ACCURACY_SOURCES).meta({
      description:
        "What is measured: IMPORTED (default) the demand history's own forecastUnits, ENGINE the engine's forecasts replayed from `from`, " +
        'STORED the points of a stored forecast run (runId, or the latest completed run of scenarioId).',
    }),
    groupBy: anyCaseEnum(ACCURACY_GROUPS, 'lower').meta({
      description: 'One row per product (default), location, channel, method (ENGINE or STORED: the method chosen per series) or one total row.',
    }),
    runId: text.meta({ description: "STORED: the forecast run measured (404 when it is not one of the organization's)." }),
    scenarioId: text.meta({ description: "STORED: measure this scenario's latest COMPLETED run (404 when the scenario is not the organization's or has none)." }),
    productMasterId: text.meta({ description: "Only this product (404 when it is not one of the organization's)." }),
    locationId: text.meta({ description: "Only this location (404 when it is not one of the organization's)." }),
    channel: text.meta({ description: 'Only this channel label (exact match).' }),
    from: text.pipe(calendarDateText.optional()).meta({
      format: 'date',
      description:
        'First measured week: the ISO week (Monday) holding this day. The history before it scales MASE. Required with source=ENGINE (the forecast origin); ' +
        "STORED defaults the scale's cut to the run's from, else its first stored week.",
    }),
    to: text.pipe(calendarDateText.optional()).meta({ format: 'date', description: `Last measured week: the ISO week holding this day (inclusive); not before from, at most ${MAX_WINDOW_DAYS} days after it.` }),
    horizon: wholeNumberOr(DEFAULT_HORIZON, `Must be an integer from 1 to ${MAX_HORIZON}`, { min: 1, max: MAX_HORIZON }).meta({
      description: `ENGINE: weeks forecast from \`from\` and measured (default ${DEFAULT_HORIZON}, at most ${MAX_HORIZON}); ignored for IMPORTED.`,
    }),
    includeAdjustments: flag.meta({
      description:
        'ENGINE: measure the forecast as GET /api/forecast answers it, events (stated and learned lifts) applied and base planner overrides winning (true, default), or the statistical forecast alone (false): the two side by side give the value the adjustments add. Ignored for IMPORTED.',
    }),
    ...pagingShape(ACCURACY_PAGING),
  })
  .superRefine((query, issue) => {
    const source = query.source ?? 'IMPORTED';
    if (source === 'ENGINE' && !query.from) issue.addIssue({ code: 'custom', path: ['from'], message: 'Required with source=ENGINE' });
    if (source === 'IMPORTED' && query.groupBy === 'method') issue.addIssue({ code: 'custom', path: ['groupBy'], message: 'method needs source=ENGINE or STORED' });
    if (source === 'STORED' && !query.runId && !query.scenarioId) issue.addIssue({ code: 'custom', path: ['runId'], message: 'runId or scenarioId is required with source=STORED' });
    if (source === 'STORED' && query.runId && query.scenarioId) issue.addIssue({ code: 'custom', path: ['scenarioId'], message: 'Not together with runId' });
    if (source !== 'STORED' && (query.runId || query.scenarioId)) issue.addIssue({ code: 'custom', path: [query.runId ? 'runId' : 'scenarioId'], message: 'Only with source=STORED' });
    if (query.from && query.to && query.to < query.from) issue.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
  })
  .superRefine(windowWithin('from', 'to'));

export type ForecastAccuracyQuery = z.output<typeof forecastAccuracyQuery>;
export type ForecastAccuracyQueryInput = z.input<typeof forecastAccuracyQuery>;
