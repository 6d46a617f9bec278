import { z } from 'zod';
import { EXTERNAL_EVENT_TYPES } from '../../../src/contracts/forecasting/events/external-event.js';
import { dateTime, nullableString } from '../../common-responses.js';

export const externalEvent = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(EXTERNAL_EVENT_TYPES),
    startsAt: dateTime,
    endsAt: dateTime,
    value: z
      .object({
        liftPct: z.number().min(-0.99).max(5).nullable(),
        stackingMode: z.enum(['MULTIPLICATIVE', 'ADDITIVE']).nullable(),
        description: nullableString,
      })
      .partial()
      .nullable()
      .describe('The effect on demand, or null when none is recorded.'),
    bookedQuantity: z
      .int()
      .nullable()
      .describe("Units of a confirmed wholesale booking line (the BOOKING events a booking keeps): forecasts add them to the week instead of a percent; null for every other event."),
    isGlobal: z.boolean().describe('True when the event applies to every product of the organization (no productMaster). Events never reach other organizations.'),
    isOrgWide: z.boolean().describe('True when the event applies at every location of the organization (no location).'),
    productMaster: z.object({ id: z.string(), name: z.string(), sku: z.string() }).partial().nullable(),
    location: z.object({ id: z.string(), name: z.string(), code: z.string() }).partial().nullable(),
    createdAt: dateTime,
  })
  .meta({ id: 'ExternalEvent' });

export const externalEventList = z.object({ events: z.array(externalEvent), data: z.array(externalEvent) });

export const externalEventDeleted = z.object({ success: z.literal(true), message: z.string() });
