import { builder } from '../../builder.js';
import type { ForecastInterval } from '../../../services/forecasting/demand/demand-forecast.js';

export const ForecastIntervalRef = builder.objectRef<ForecastInterval>('ForecastInterval').implement({
  description: 'A central prediction interval of one point.',
  fields: (t) => ({
    level: t.exposeFloat('level', { description: 'Level in percent, for example 80.' }),
    lower: t.exposeFloat('lower', { description: 'Lower bound, never below zero.' }),
    upper: t.exposeFloat('upper', { description: 'Upper bound.' }),
  }),
});

interface ForecastValues {
  forecast: number;
  lower: number;
  upper: number;
  lower95: number;
  upper95: number;
  intervals: ForecastInterval[];
}

/** What every forecast point answers, whatever its period (a week, a month) and its path. */
export const ForecastValuesRef = builder.interfaceRef<ForecastValues>('ForecastValues').implement({
  description: 'The forecast of one period and its prediction intervals.',
  fields: (t) => ({
    forecast: t.exposeFloat('forecast', { description: 'Median forecast units of the period, never below zero.' }),
    lower: t.exposeFloat('lower', { description: 'Lower bound at the first level asked for.' }),
    upper: t.exposeFloat('upper', { description: 'Upper bound at the first level asked for.' }),
    lower95: t.exposeFloat('lower95', { description: 'Lower bound at 95 %, asked for or not.' }),
    upper95: t.exposeFloat('upper95', { description: 'Upper bound at 95 %, asked for or not.' }),
    intervals: t.field({ type: [ForecastIntervalRef], description: 'One interval per level asked for, in the order asked.', resolve: (p) => p.intervals }),
  }),
});
