import { z } from 'zod';
import { calendarDate, dateTime, integer } from '../../common-responses.js';

const EVENT_TYPES = ['PROMOTION', 'PRICE_CHANGE', 'HOLIDAY', 'WEATHER', 'BOOKING', 'MACRO', 'OTHER'] as const;

const learnedLift = z
  .object({
    type: z.enum(EVENT_TYPES),
    pool: z.enum(['TYPE', 'LINK']).describe('TYPE: every past event of the kind; LINK: those linked to productMasterId and locationId.'),
    productMasterId: z.string().nullable().describe('LINK: the product the events are linked to (null: global events); TYPE: null.'),
    locationId: z.string().nullable().describe('LINK: the location the events are linked to (null: org-wide events); TYPE: null.'),
    liftPct: z.number().describe("The median of the occurrences' lifts, as a fraction (0.4 = +40 %)."),
    lowerPct: z.number().nullable().describe('Lower end of the distribution-free interval of the median (at least 80 %); null under 4 occurrences.'),
    upperPct: z.number().nullable().describe('Upper end of that interval; null under 4 occurrences.'),
    confidenceLevel: z.number().min(0).max(1).nullable().describe("That interval's exact coverage (binomial); null with it."),
    occurrences: integer.describe('Past events pooled.'),
    weeks: integer.describe('History weeks they cover.'),
    usable: z.boolean().describe('Enough occurrences (meta.minOccurrences) for forecasts to use it.'),
    method: z.string().describe('LOCAL_BASELINE_MEDIAN.'),
  })
  .meta({ id: 'LearnedEventLift', description: 'A lift learned from the past occurrences of one kind of event.' });

const occurrence = z
  .object({
    eventId: z.string(),
    name: z.string(),
    type: z.enum(EVENT_TYPES),
    startsAt: dateTime,
    endsAt: dateTime,
    productMasterId: z.string().nullable().describe('Its product link (null: global).'),
    locationId: z.string().nullable().describe('Its location link (null: org-wide).'),
    weeks: integer.describe('Weeks it covers inside the history.'),
    actualUnits: z.number().describe('Units of every series it reaches (all channels) over those weeks.'),
    baselineUnits: z.number().describe('Counterfactual units a week: the median of the nearest event-free weeks, up to 4 on each side within 8 weeks.'),
    baselineWeeks: integer.describe('Weeks that median was taken over.'),
    liftPct: z.number().describe('actualUnits ÷ (baselineUnits × weeks) − 1.'),
  })
  .meta({ id: 'EventLiftOccurrence', description: "One past event's observed lift." });

export const learnedLiftsBody = z.object({
  data: z.array(learnedLift).describe('Per type its TYPE pool then its LINK pools, types in alphabetical order.'),
  occurrences: z.array(occurrence).describe('The occurrences pooled, oldest first.'),
  meta: z.object({
    before: calendarDate.nullable().describe('Learned from the history before this week (Monday); null: all of it.'),
    learnedFrom: calendarDate.nullable().describe('First week (Monday) of the history learned from: the last 260 weeks of history before `before`; null without history.'),
    maxEvents: integer.describe('At most this many events are learned from (the most recent in those weeks); an event over 52 weeks is no occurrence.'),
    minOccurrences: integer.describe('Occurrences a pool needs before forecasts use it.'),
    method: z.string().describe('How occurrence lifts are estimated and pooled.'),
  }),
});
