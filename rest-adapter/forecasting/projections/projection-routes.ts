import { channelProjectionQuery } from '../../../src/contracts/forecasting/projections/channel-projection-query.js';
import { longTermQuery } from '../../../src/contracts/forecasting/projections/long-term-query.js';
import { defineRoutes } from '../../route.js';
import { jsonContent } from '../../openapi-common.js';
import { forecasting, withForbidden } from '../forecast-docs.js';
import { channelProjectionPage, longTermPage } from './projection-responses.js';

const WEEK_POINT = 'periodStart forecast lower upper lower95 upper95 intervals { level lower upper } liftFactor liftSource adjustmentFactor overridden overrideId';
const EVENT = 'id: eventId name type startsAt endsAt liftPct stackingMode liftSource learnedPool learnedOccurrences';
const ADJUSTMENTS = 'scenarioId categoryId categoryLiftPct channelId channelLiftPct globalLiftPct factor';
const MONTH_POINT = 'month periodStart periodEnd forecast lower upper lower95 upper95 intervals { level lower upper } liftFactor liftSource adjustmentFactor';

export const projectionRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/forecast/channel-projection',
    operation: `query ($productMasterId: ID, $locationId: ID, $scenarioId: ID, $horizon: Int, $shareWeeks: Int, $levels: [Float!], $page: Int, $limit: Int) {
      channelProjectionPage(productMasterId: $productMasterId, locationId: $locationId, scenarioId: $scenarioId, horizon: $horizon, shareWeeks: $shareWeeks,
        levels: $levels, page: $page, limit: $limit) {
        items { productMasterId locationId method backtestError intervalSource historyWeeks lastHistoryWeek shareBasis shareFrom shareWeeks
          shares { channel share recentUnits } events { ${EVENT} } total { ${WEEK_POINT} }
          channels { channel share adjustments { ${ADJUSTMENTS} } points { ${WEEK_POINT} } } }
        page limit total totalPages horizon shareWeeks levels scenarioId
      }
    }`,
    input: { query: channelProjectionQuery },
    variables: ({ query }) => query,
    result: ({ channelProjectionPage: { items, ...meta } }) => ({ data: items, meta }),
    doc: {
      operationId: 'getChannelProjection',
      summary: 'Forecast split by channel',
      description:
        'For one page of the product × location pairs of the demand history (ordered by their ids): the weekly forecast of the ' +
        "pair's total (its channels summed) by the same engine as GET /api/forecast, split each week by each channel's share of " +
        "the pair's demand over its last `shareWeeks` history weeks (the shares are answered). Without demand in that window the " +
        'shares come from the whole history (shareBasis HISTORY), and without any demand they are equal (EQUAL). A channel\'s ' +
        "bounds are the total's bounds times its share. The assumptions of GET /api/forecast apply, each where it belongs: the " +
        "events reaching the pair (stated or learned lifts; with scenarioId only those it includes) and the scenario's category and " +
        "global adjustments scale the total before the split; each channel's part is then multiplied by the scenario's adjustment " +
        "of that channel (matched by name, else type, as GET /api/forecast matches a label); planners' overrides of a channel " +
        "label's week (the scenario's own before the base ones) set that channel's point, bounds shifted alike. The total is what " +
        'its channels add up to (without channel adjustments or overrides, the fitted total × liftFactor × adjustmentFactor).',
      ...forecasting,
      responses: withForbidden({ 200: { description: 'A page of channel projections', ...jsonContent(channelProjectionPage) } }, [400, 401, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/forecast/long-term',
    operation: `query ($productMasterId: ID, $locationId: ID, $channel: String, $scenarioId: ID, $months: Int, $levels: [Float!], $page: Int, $limit: Int) {
      longTermForecastPage(productMasterId: $productMasterId, locationId: $locationId, channel: $channel, scenarioId: $scenarioId, months: $months,
        levels: $levels, page: $page, limit: $limit) {
        items { productMasterId locationId channel method alpha beta phi intervalSource historyMonths firstHistoryMonth lastHistoryMonth
          lastMonthPartial events { ${EVENT} } adjustments { ${ADJUSTMENTS} } points { ${MONTH_POINT} } }
        page limit total totalPages months levels scenarioId
      }
    }`,
    input: { query: longTermQuery },
    variables: ({ query }) => query,
    result: ({ longTermForecastPage: { items, ...meta } }) => ({ data: items, meta }),
    doc: {
      operationId: 'getLongTermForecast',
      summary: 'Monthly long-term forecasts',
      description:
        'Monthly forecasts 12 to 24 calendar months ahead of one page of demand-history series (product × location × channel): ' +
        "each week's units are spread over its seven days and bucketed by calendar month (a partly covered first or last month " +
        'scaled to the whole month), then a damped-trend Holt is fitted (with additive 12-month seasonal indices when the ' +
        'series spans two years or more); the intervals are conformal, from a rolling-origin backtest of the same method, and ' +
        'never below zero. The forecast starts the month after the last month the history touches. Then the assumptions of ' +
        'GET /api/forecast: the events reaching the series (stated or learned lifts; with scenarioId only those it includes) lift ' +
        "each month by the mean over its days of the stacked factor of the events covering each day (liftFactor), and the scenario's " +
        'category, channel and global adjustments multiply next (adjustmentFactor). Planner overrides are weekly and are not applied.',
      ...forecasting,
      responses: withForbidden({ 200: { description: 'A page of monthly series forecasts', ...jsonContent(longTermPage) } }, [400, 401, 404]),
    },
  },
]);
