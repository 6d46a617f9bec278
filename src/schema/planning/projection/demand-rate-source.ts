import { builder } from '../../builder.js';
import type { DemandRateSource } from '../../../services/planning/projection/demand-rate.js';

/** Where a demand rate came from (planning/projection/demand-rate.ts): one enum for every read that shows it. */
export const DemandSourceEnum = builder.enumType('DemandRateSource', {
  description: 'Where a demand rate came from: the first of these with a positive number.',
  values: {
    PLANNER: { description: "The inventory level's forecastQuantity ÷ forecastPeriodDays (a planner's number)." },
    FORECAST: { description: 'The forecast of record: the latest completed run of the most recently published scenario, its weekly mean ÷ 7.' },
    HISTORY: { description: 'The demand history of the last 8 complete weeks ÷ 56 days.' },
    LEDGER: { description: 'Units that left on hand as demand (picks, consumption, downward adjustments, imports) in the last 56 days ÷ 56.' },
  } satisfies Record<DemandRateSource, unknown>,
});
