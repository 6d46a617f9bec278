import { forecastQuery } from '../../../src/contracts/forecasting/demand/forecast-query.js';
import { defineRoutes } from '../../route.js';
import { jsonContent } from '../../openapi-common.js';
import { forecasting, withForbidden } from '../forecast-docs.js';
import { forecastPage } from './forecast-responses.js';

const SERIES = `productMasterId locationId channel method backtestError errorScale demandClass intervalSource historyWeeks lastHistoryWeek
  events { id: eventId name type startsAt endsAt liftPct stackingMode liftSource learnedPool learnedOccurrences }
  adjustments { scenarioId categoryId categoryLiftPct channelId channelLiftPct globalLiftPct factor }
  points { periodStart forecast lower upper lower95 upper95 intervals { level lower upper } liftFactor liftSource eventIds adjustmentFactor bookedQuantity overridden modelForecast overrideId }`;

export const forecastRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/forecast',
    operation: `query ($productMasterId: ID, $locationId: ID, $channel: String, $scenarioId: ID, $horizon: Int, $levels: [Float!], $from: Date, $page: Int, $limit: Int) {
      demandForecastPage(productMasterId: $productMasterId, locationId: $locationId, channel: $channel, scenarioId: $scenarioId, horizon: $horizon, levels: $levels,
        from: $from, page: $page, limit: $limit) { items { ${SERIES} } page limit total totalPages horizon levels from scenarioId }
    }`,
    input: { query: forecastQuery },
    variables: ({ query }) => query,
    result: ({ demandForecastPage: { items, ...meta } }) => ({ data: items, meta }),
    doc: {
      operationId: 'getDemandForecast',
      summary: 'Generate demand forecasts',
      description:
        'Weekly forecasts of one page of demand-history series (product × location × channel, ordered by their ids): the method ' +
        "is chosen per series by rolling-origin backtest on the series' own history, the intervals are conformal (from the " +
        'backtest errors), and the external events that reach a series (global or its product, org-wide or its location) ' +
        'lift the weeks they overlap, MULTIPLICATIVE ones multiplying and ADDITIVE ones adding their lifts. An event without a ' +
        'stated lift (value null or no liftPct) gets the lift learned from past events of its type (GET /api/forecast/events/learned-lifts; ' +
        'with `from`, learned from the history before it), or none when too few occurred; each point tells its liftSource and eventIds. lower/upper are ' +
        'the first level asked for, lower95/upper95 always the 95 % interval, `intervals` every level asked for. With `from` ' +
        'the engine sees only the history before that week; series without history before it are not listed. With `scenarioId` ' +
        "the scenario's assumptions apply in this order: only the events it includes (includedEventIds; absent: all), then its " +
        "adjustment of the product's category, of the series' channel (the adjusted channel whose name, else type, equals the " +
        'channel label, case-insensitive), then its global lift; each lift multiplies the forecast and bounds by 1 + liftPct ' +
        '(never below zero). Each point tells its liftFactor (events) and adjustmentFactor (the rest); each series its `adjustments`. ' +
        'An unknown or foreign scenario: 404; an ARCHIVED one still applies.',
      ...forecasting,
      responses: withForbidden({ 200: { description: 'A page of series forecasts', ...jsonContent(forecastPage) } }, [400, 401, 404]),
    },
  },
]);
