import { z } from 'zod';
import { calendarDateText } from '../../date-times.js';
import { anyCaseEnum, text } from '../../query-values.js';
import { EXTERNAL_EVENT_TYPES } from './external-event.js';

/** Query of GET /api/forecast/events/learned-lifts and arguments of learnedEventLifts. */
export const learnedLiftQuery = z.object({
  type: anyCaseEnum(EXTERNAL_EVENT_TYPES).meta({ description: 'Only events of this kind (any case).' }),
  productMasterId: text.meta({ description: "Only LINK pools of events linked to this product (TYPE pools stay); 404 when it is not one of the organization's." }),
  locationId: text.meta({ description: "Only LINK pools of events linked to this location (TYPE pools stay); 404 when it is not one of the organization's." }),
  before: text.pipe(calendarDateText.optional()).meta({
    format: 'date',
    description: 'Learn only from the history before the ISO week (Monday) holding this day, as GET /api/forecast with `from` does. Default: all of it.',
  }),
});

export type LearnedLiftQueryInput = z.input<typeof learnedLiftQuery>;
export type LearnedLiftQuery = z.output<typeof learnedLiftQuery>;
