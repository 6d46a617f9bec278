import { IMPORT_DATE_WORDS, isoDate, LOCATION_REF, optionalNumber, optionalText, requiredText, rowObject } from './row-values.js';

const units = (description: string) => optionalNumber({ min: 0, max: 1e12 }).meta({ description });

/**
 * A DEMAND_HISTORY row: a weekly demand record. `date` is any day of the week: the record is kept under
 * the Monday of its ISO week. Defaults: channel ALL, actualDemand 0, forecastUnits the actual units.
 */
export const demandHistoryRow = rowObject({
  sku: requiredText(100).meta({ description: 'SKU of an existing product.' }),
  locationCode: requiredText(200).meta({ description: LOCATION_REF }),
  date: isoDate.meta({ description: `Any day of the week the record describes. ${IMPORT_DATE_WORDS}` }),
  channel: optionalText(100).meta({ maxLength: 100, default: 'ALL', description: 'Channel label, matched exactly (default ALL).' }),
  actualDemand: units('Actual units demanded in the week (default 0).').meta({ default: 0 }),
  forecastUnits: units('Forecast units for the week (default: the actual units).'),
});
