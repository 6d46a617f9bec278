import { z } from 'zod';
import { calendarDate, dateTime, integer, nullableString } from '../common-responses.js';

const status = z.enum(['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED']);

const line = z
  .object({
    id: z.string(),
    productMasterId: z.string(),
    quantityRequested: integer,
    quantityApproved: integer.nullable().describe('Null until an approver sets it or approves the request.'),
    quantityFulfilled: integer.describe('Units shipped to the requesting location (less any returned by a cancelled transfer).'),
    quantityReserved: integer.describe('Units reserved for the line at the supplying location now (below what is approved and unfulfilled when the approval found less available).'),
    quantityReceived: integer.describe('Units received at the requesting location.'),
    unit: nullableString,
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: 'StockRequestLine', description: 'One product of a stock request.' });

export const stockRequest = z
  .object({
    id: z.string(),
    number: integer.describe('Number of the request in the organization, from 1.'),
    reference: z.string().describe('SR- and the number in six digits or more.'),
    requestingLocationId: z.string(),
    supplyingLocationId: z.string(),
    neededBy: calendarDate,
    priority: z.enum(['LOW', 'NORMAL', 'HIGH', 'URGENT']),
    reason: nullableString,
    status,
    requesterType: z.string().describe('USER or API_KEY.'),
    requesterId: z.string(),
    submittedAt: dateTime.nullable(),
    approvedAt: dateTime.nullable(),
    approvedBy: nullableString,
    rejectedAt: dateTime.nullable(),
    rejectedBy: nullableString,
    rejectionReason: nullableString,
    cancelledAt: dateTime.nullable(),
    cancelledBy: nullableString,
    remainderClosedAt: dateTime.nullable().describe('When the unfulfilled remainder was closed (fulfil with closeRemainder, or the move to FULFILLED).'),
    remainderClosedBy: nullableString,
    createdAt: dateTime,
    updatedAt: dateTime,
    lines: z.array(line),
  })
  .meta({ id: 'StockRequest', description: 'A location asking another location of the organization for stock, with approval.' });

export const stockRequestList = z
  .object({ requests: z.array(stockRequest), data: z.array(stockRequest), total: integer, limit: integer, offset: integer })
  .describe('`requests` and `data` hold the same requests, newest first.');

export const stockRequestLines = z.object({ id: z.string(), status, lines: z.array(line), data: z.array(line) }).describe('`lines` and `data` hold the same lines.');

export const stockRequestEvent = z
  .object({
    id: z.string(),
    kind: z.enum(['CREATED', 'STATUS', 'ROLLBACK', 'COMMENT', 'LINES', 'FULFILMENT', 'RECEIPT', 'RETURN']),
    fromStatus: status.nullable(),
    toStatus: status.nullable(),
    note: nullableString,
    transferId: nullableString.describe('The inventory transfer of a FULFILMENT, RECEIPT or RETURN entry.'),
    actorType: z.string().describe('USER or API_KEY.'),
    actorId: z.string(),
    createdAt: dateTime,
  })
  .meta({ id: 'StockRequestEvent', description: 'One entry of a stock request history.' });

export const stockRequestHistory = z
  .object({ id: z.string(), status, events: z.array(stockRequestEvent), data: z.array(stockRequestEvent), total: integer, limit: integer, offset: integer })
  .describe('The state now and a page of the history, oldest first; `events` and `data` hold the same entries.');
