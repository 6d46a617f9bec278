import { z } from 'zod';
import { calendarDate, integer, nullableString } from '../../common-responses.js';

const refusal = z
  .object({
    code: z.enum(['EXPIRED', 'RECALLED', 'SHORT_DATED', 'ON_HOLD', 'NO_AVAILABLE_UNITS']),
    message: z.string(),
  })
  .meta({ id: 'LotRefusal', description: 'Why a pick takes nothing from a line.' });

const verdict = z
  .object({
    stockLineId: z.string(),
    lotId: nullableString,
    lotCode: nullableString,
    binId: nullableString,
    expiryDate: calendarDate.nullable(),
    daysToExpiry: integer.nullable().describe('Days from today to the expiry date (negative once expired).'),
    qtyAvailable: integer,
    qtyToPick: integer.describe('Units a pick of the requested quantity would take from this line now.'),
    pickable: z.boolean(),
    refusal: refusal.nullable(),
  })
  .meta({ id: 'LotPickVerdict', description: 'One stock line, in pick order (first expiry first, lines without expiry last).' });

export const lotValidationResult = z
  .object({
    productMasterId: z.string(),
    locationId: z.string(),
    requestedQuantity: integer,
    minShelfLifeDays: integer,
    minShelfLifeSource: z.enum(['PRODUCT', 'ORGANIZATION']),
    lines: z.array(verdict),
    pickableQuantity: integer,
    allocatedQuantity: integer,
    canFulfill: z.boolean(),
    shortfall: integer,
  })
  .meta({ id: 'LotPickValidation' });
