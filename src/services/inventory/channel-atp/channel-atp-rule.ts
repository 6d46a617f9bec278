// Channel availability to promise (ATP). The rule, written once:
//
//   available(product, location) = Σ availableQty(line) over the product's stock lines at the location,
//                                  leaving out lines whose lot is expired or recalled (lineExcluded).
//   atp(channel) = SHARE → floor(available × sharePct); FIXED → min(fixedQuantity, available);
//                  no policy at that location → available (the channel is not restricted there).
//   severity     = CRITICAL when atp <= 0, LOW when atp < lowAtpThreshold, else OK.
//
// Every channel of the organization is evaluated at every location; only a policy restricts it.
// The products listed at a location are those with at least one stock line there.
import { availableQty, type LineQuantities, lineExcluded, startOfTodayUtc } from '../stock-lines/quantities.js';

export type Severity = 'OK' | 'LOW' | 'CRITICAL';
export type AllocationModeName = 'SHARE' | 'FIXED';

export interface PolicyTerms {
  mode: AllocationModeName;
  sharePct: number | null;
  fixedQuantity: number | null;
  lowAtpThreshold: number;
}

// sharePct is a binary fraction: 100 × 0.29 is 28.999999999999996, which must still give 29.
const SHARE_EPSILON = 1e-9;

/** What a channel may promise of `available` under its policy (none: all of it). */
export function channelAtp(available: number, policy: PolicyTerms | null): number {
  if (!policy) return available;
  if (policy.mode === 'SHARE') return Math.max(0, Math.floor(available * (policy.sharePct ?? 0) + SHARE_EPSILON));
  return Math.max(0, Math.min(policy.fixedQuantity ?? 0, available));
}

export function atpSeverity(atp: number, threshold: number): Severity {
  if (atp <= 0) return 'CRITICAL';
  return atp < threshold ? 'LOW' : 'OK';
}

/** A channel as the ATP reads show it at one location, with its policy there (if any). */
export interface ChannelColumn {
  channelId: string;
  channelName: string;
  channelType: string;
  policyId: string | null;
  mode: AllocationModeName | null;
  sharePct: number | null;
  fixedQuantity: number | null;
  /** The policy's threshold; 0 without a policy. */
  lowAtpThreshold: number;
}

export interface ChannelAtpEntry {
  channelId: string;
  channelName: string;
  atp: number;
  onHand: number;
  reserved: number;
  available: number;
  severity: Severity;
  /** The policy's low-ATP threshold; null when the channel has no policy at the location. */
  threshold: number | null;
  policyId: string | null;
}

export interface StockTotals {
  onHand: number;
  reserved: number;
  available: number;
}

export interface ProductAtp {
  productMasterId: string;
  productName: string;
  globalSku: string;
  categoryName: string | null;
  channels: ChannelAtpEntry[];
  totalOnHand: number;
  totalReserved: number;
  totalAvailable: number;
  minAtp: number;
  maxAtp: number;
  hasCritical: boolean;
}

const policyOf = (column: ChannelColumn): PolicyTerms | null =>
  column.policyId && column.mode
    ? { mode: column.mode, sharePct: column.sharePct, fixedQuantity: column.fixedQuantity, lowAtpThreshold: column.lowAtpThreshold }
    : null;

export function channelEntry(column: ChannelColumn, totals: StockTotals): ChannelAtpEntry {
  const policy = policyOf(column);
  const atp = channelAtp(totals.available, policy);
  return {
    channelId: column.channelId,
    channelName: column.channelName,
    atp,
    onHand: totals.onHand,
    reserved: totals.reserved,
    available: totals.available,
    severity: atpSeverity(atp, policy?.lowAtpThreshold ?? 0),
    threshold: policy ? policy.lowAtpThreshold : null,
    policyId: column.policyId,
  };
}

export function productAtp(
  product: { id: string; sku: string; name: string; categoryName: string | null },
  columns: ChannelColumn[],
  totals: StockTotals,
): ProductAtp {
  const channels = columns.map((column) => channelEntry(column, totals));
  const atps = channels.map((c) => c.atp);
  return {
    productMasterId: product.id,
    productName: product.name,
    globalSku: product.sku,
    categoryName: product.categoryName,
    channels,
    totalOnHand: totals.onHand,
    totalReserved: totals.reserved,
    totalAvailable: totals.available,
    minAtp: atps.length ? Math.min(...atps) : 0,
    maxAtp: atps.length ? Math.max(...atps) : 0,
    hasCritical: channels.some((c) => c.severity === 'CRITICAL'),
  };
}

/** Stock quantities with the lot that decides whether they are usable. */
export interface LotQuantities extends LineQuantities {
  expiryDate: Date | null;
  recalled: boolean | null;
  lotId: string | null;
}

export const emptyTotals = (): StockTotals => ({ onHand: 0, reserved: 0, available: 0 });

/** Adds quantities to totals: on hand and reserved always, available only when the lot is usable. */
export function addToTotals(totals: StockTotals, q: LotQuantities, today = startOfTodayUtc()): StockTotals {
  totals.onHand += q.qtyOnHand;
  totals.reserved += q.qtyReserved;
  if (!lineExcluded(lotOf(q), {}, today)) totals.available += availableQty(q);
  return totals;
}

export const lotOf = (q: LotQuantities) => (q.lotId ? { expiryDate: q.expiryDate, recalled: Boolean(q.recalled) } : null);
