import { z } from 'zod';
import { MAX_EVENT_SPAN_DAYS, MAX_WINDOW_DAYS } from '../../../kernel/input-limits.js';
import { dateTime, dateTimeText } from '../../date-times.js';
import { mustBe } from '../../parse.js';
import { flag, text } from '../../query-values.js';

export const EXTERNAL_EVENT_TYPES = ['PROMOTION', 'PRICE_CHANGE', 'HOLIDAY', 'WEATHER', 'BOOKING', 'MACRO', 'OTHER'] as const;
const STACKING_MODES = ['MULTIPLICATIVE', 'ADDITIVE'] as const;

const oneOf = (values: readonly string[]) => (issue: { input?: unknown }) => (issue.input === undefined ? 'Required' : `One of ${values.join(', ')}`);

const name = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(300, 'At most 300 characters');
const type = z.enum(EXTERNAL_EVENT_TYPES, { error: oneOf(EXTERNAL_EVENT_TYPES) });
const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required');

/** The value object itself; `eventValue` is the field of a body (absent or null: none). */
export const eventValueFields = z
  .strictObject({
    liftPct: z.number({ error: mustBe('a number') }).min(-0.99, 'Must be at least -0.99').max(5, 'Must be at most 5').nullish().meta({ description: 'Demand change as a fraction (0.2 = +20 %).' }),
    stackingMode: z.enum(STACKING_MODES, { error: oneOf(STACKING_MODES) }).nullish().meta({ description: 'Default MULTIPLICATIVE when liftPct is given.' }),
    description: z.string({ error: mustBe('text') }).max(2000, 'At most 2000 characters').nullish().meta({ description: 'Free text about the value.' }),
  })
  .meta({ description: 'How much an event lifts or lowers demand.' });

export const eventValue = eventValueFields.nullish();

const scope = {
  productMasterId: id.nullish().meta({ description: 'The one product the event is limited to (a product of the organization); leave out for every product.' }),
  locationId: id.nullish().meta({ description: 'The one location the event is limited to (a location of the organization); leave out for every location.' }),
  isGlobal: z.boolean({ error: mustBe('true or false') }).nullish().meta({ description: 'Optional; follows productMasterId (true without one). A contradicting value is a 400.' }),
  isOrgWide: z.boolean({ error: mustBe('true or false') }).nullish().meta({ description: 'Optional; follows locationId (true without one). A contradicting value is a 400.' }),
};

/** Body of POST /api/forecast/events and input of createExternalEvent. */
export const externalEventCreate = z.strictObject({
  name: name.meta({ description: 'Event name.' }),
  type: type.meta({ description: 'Kind of event.' }),
  startsAt: dateTime.meta({ type: 'string', format: 'date-time', description: 'When the event starts.' }),
  endsAt: dateTime.meta({ type: 'string', format: 'date-time', description: `When the event ends: not before startsAt, at most ${MAX_EVENT_SPAN_DAYS} days after it.` }),
  value: eventValue.meta({ description: 'The effect on demand (absent or null: none).' }),
  ...scope,
});

// Required fields may be left out of an update but not set to null.
/** Body of PUT and PATCH /api/forecast/events/{id} and input of updateExternalEvent. */
export const externalEventUpdate = z
  .strictObject({
    name: name.optional().meta({ description: 'New name.' }),
    type: type.optional().meta({ description: 'New kind of event.' }),
    startsAt: dateTime.optional().meta({ type: 'string', format: 'date-time', description: 'New start.' }),
    endsAt: dateTime.optional().meta({ type: 'string', format: 'date-time', description: `New end: not before startsAt (the stored one when absent), at most ${MAX_EVENT_SPAN_DAYS} days after it.` }),
    value: eventValue.meta({ description: 'New effect on demand; absent fields within it stay as they are; null removes it.' }),
    ...scope,
  })
  .meta({ description: 'Absent fields stay as they are, within value too (liftPct alone keeps the description); null clears value, productMasterId or locationId.' });

/** Query of GET /api/forecast/events. */
export const externalEventListQuery = z.object({
  from: dateTimeText.meta({ description: 'Window start (default: the start of today, UTC).' }),
  to: dateTimeText.meta({ description: `Window end (default: from plus 90 days); not before from, at most ${MAX_WINDOW_DAYS} days after it.` }),
  productMasterId: text.meta({ description: "Only this product's events, plus global ones unless includeGlobal=false (404 when it is not one of the organization's)." }),
  locationId: text.meta({ description: "Only this location's events, plus org-wide ones unless includeOrgWide=false (404 when it is not one of the organization's)." }),
  type: z.preprocess((value) => (value === '' ? undefined : value), type.optional()).meta({ description: 'Only events of this kind.' }),
  includeGlobal: flag.meta({ description: 'Include events for every product (isGlobal; default true).' }),
  includeOrgWide: flag.meta({ description: 'Include events for every location (isOrgWide; default true).' }),
});
