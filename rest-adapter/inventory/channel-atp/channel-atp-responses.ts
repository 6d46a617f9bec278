import { z } from 'zod';
import { calendarDate, integer, nullableString, unitTotal } from '../../common-responses.js';

const channelAtpEntry = z
  .object({
    channelId: z.string(),
    channelName: z.string(),
    atp: unitTotal('Available to promise for the channel.'),
    onHand: unitTotal('Units on hand at the location (every line).'),
    reserved: unitTotal('Units reserved at the location (every line).'),
    available: unitTotal('Units available at the location (usable lots only).'),
    severity: z.enum(['OK', 'LOW', 'CRITICAL']),
    threshold: integer.nullable().describe('The policy\'s lowAtpThreshold; null without a policy.').optional(),
    policyId: nullableString.describe('The policy applied; null without a policy.').optional(),
  })
  .meta({ id: 'ChannelAtpEntry' });

const channelAtpProduct = z
  .object({
    productMasterId: z.string(),
    productName: z.string(),
    globalSku: z.string(),
    categoryName: nullableString.optional(),
    channels: z.array(channelAtpEntry),
    totalOnHand: unitTotal('On hand at the location.'),
    totalReserved: unitTotal('Reserved at the location.'),
    totalAvailable: unitTotal('Available at the location (usable lots only).').optional(),
    minAtp: unitTotal('Lowest channel ATP (0 when no channel is shown).'),
    maxAtp: unitTotal('Highest channel ATP (0 when no channel is shown).'),
    hasCritical: z.boolean(),
  })
  .meta({ id: 'ChannelAtpProduct' });

const channelAtpChannel = z
  .object({
    channelId: z.string(),
    channelName: z.string(),
    channelType: z.string(),
    policyId: nullableString.describe('The channel\'s policy at the location; null: unrestricted.'),
    mode: z.enum(['SHARE', 'FIXED']).nullable().optional(),
    sharePct: z.number().nullable().optional(),
    fixedQuantity: integer.nullable().optional(),
    lowAtpThreshold: integer.describe('0 without a policy.'),
  })
  .meta({ id: 'ChannelAtpChannel' });

const channelAtpLocation = z.object({ id: z.string(), name: z.string(), code: z.string().optional() }).meta({ id: 'ChannelAtpLocation' });

const channelAtpStockLine = z
  .object({
    id: z.string(),
    lotId: nullableString,
    lotCode: nullableString,
    binId: nullableString,
    binCode: nullableString,
    expiryDate: calendarDate.nullable(),
    qtyOnHand: integer,
    qtyAvailable: integer.describe('What the line adds to available: 0 when excluded.'),
    qtyReserved: integer,
    qtyOnHold: integer,
    qtyPicked: integer,
    qtyRecalled: integer,
    qtyExpired: integer,
    excluded: z.boolean().describe('The lot is expired or recalled, so the line adds nothing to ATP.'),
    excludedReason: z.enum(['RECALLED', 'EXPIRED']).nullable(),
  })
  .partial()
  .meta({ id: 'ChannelAtpStockLine' });

const channelAtpSummary = z
  .object({
    channelId: z.string(),
    channelName: z.string(),
    channelType: z.string(),
    locations: integer.describe('Locations holding stock that were evaluated.'),
    policyCount: integer.describe('Locations (within the filter) where the channel has a policy.'),
    totalAtp: unitTotal('ATP summed over every product-location pair.'),
    criticalCount: integer,
    lowCount: integer,
    okCount: integer,
  })
  .partial()
  .meta({ id: 'ChannelAtpSummary' });

export const channelDrilldown = z
  .object({
    product: channelAtpProduct,
    location: channelAtpLocation,
    channels: z.array(channelAtpEntry),
    channelList: z.array(channelAtpChannel),
    stockLines: z.array(channelAtpStockLine),
  })
  .partial();

export const channelLocationPage = z.object({
  products: z.array(channelAtpProduct),
  channels: z.array(channelAtpChannel),
  location: channelAtpLocation,
  pagination: z.object({ page: integer, pageSize: integer, total: integer, totalPages: integer }).partial(),
  data: z.array(channelAtpProduct).describe('The same as products (the variant\'s key).'),
});

export const channelSummaries = z.object({ channels: z.array(channelAtpSummary), data: z.array(channelAtpSummary) }).partial();
