// Reserving stock for a document (an order now; shipments and stock requests later), and taking stock
// out of a location (transfers): first-expiry-first-out over the lots of a product at a location.
import { Prisma } from '../../../generated/prisma/client.js';
import { orgId } from '../../tenant.js';
import { availableQty, lineExcluded, startOfTodayUtc, type LineQuantities } from '../stock-lines/quantities.js';
import { applyStockChangeSeries, type StockChange } from '../ledger/stock-ledger.js';
import type { TxContext } from '../../../db/transactions.js';

/** Which lines a reservation session locks. */
export interface ReservationScope {
  /** Every stock line of each of these products at its location. */
  stockOf: { productMasterId: string; locationId: string }[];
  /** These lines as well (for example those a document holds now and may release). */
  lineIds?: string[];
}

/** What the ledger rows of a reservation or release say caused them. */
export type ReservationSource = Pick<StockChange, 'transactionType' | 'sourceType' | 'sourceId' | 'comment'>;

/** Units of one stock line reserved for (or withdrawn by) a request. */
export interface Allocation {
  stockLineId: string;
  quantity: number;
  /** The line's lot and bin, so a document can say where its units came from. */
  lotId: string | null;
  binId: string | null;
}

/** What to take: units of a product at a location, optionally only from one lot and/or one bin. */
export interface StockRequest {
  productMasterId: string;
  locationId: string;
  quantity: number;
  lotId?: string | null;
  binId?: string | null;
}

export interface Reservations {
  /** Releases up to `quantity` reserved units of a locked line (no more than it has reserved); returns the units released. */
  release(stockLineId: string, quantity: number, source: ReservationSource): number;
  /**
   * Reserves up to `quantity` units of the product at the location, first-expiring lots first (lines
   * without expiry last), skipping expired and recalled lots. Returns the allocations, which may add
   * up to less than asked (the rest is not available: backordered).
   */
  reserve(request: StockRequest, source: ReservationSource): Allocation[];
  /**
   * Takes up to `quantity` available units out of the location (on hand goes down: the units leave,
   * for example on a transfer's truck), choosing lines as reserve() does, only from the given lot and
   * bin when named. Returns the allocations, which may add up to less than asked.
   */
  withdraw(request: StockRequest, source: ReservationSource): Allocation[];
  /** Writes every release and reservation, in the order they were made, with their ledger rows. */
  write(): Promise<void>;
}

type Candidate = LineQuantities & {
  id: string;
  productMasterId: string;
  locationId: string;
  lotId: string | null;
  binId: string | null;
  expiryDate: Date | null;
  recalled: boolean | null;
  hasLot: boolean;
};

const pairKey = (productMasterId: string, locationId: string) => `${productMasterId}|${locationId}`;

const fefo = (a: Candidate, b: Candidate) => {
  const ea = a.expiryDate?.getTime() ?? Infinity;
  const eb = b.expiryDate?.getTime() ?? Infinity;
  return ea !== eb ? ea - eb : a.id < b.id ? -1 : 1;
};

/**
 * Opens a reservation session in the transaction `tx`: locks every line of the scope in id order (so
 * sessions over the same lines cannot deadlock), then works out releases and reservations on the locked
 * quantities, which nothing else can change before the commit, and writes them together with write()
 * (one series of changes through the ledger). Call write() before the transaction ends.
 */
export async function openReservations(ctx: TxContext, scope: ReservationScope): Promise<Reservations> {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const { stockOf } = scope;
  const lineIds = [...new Set(scope.lineIds ?? [])];
  const locked = await tx.$queryRaw<Candidate[]>`
    SELECT sl.id, sl."productMasterId", sl."locationId", sl."lotId", sl."binId", sl."qtyOnHand", sl."qtyReserved", sl."qtyOnHold", sl."qtyPicked",
           sl."qtyRecalled", sl."qtyExpired", lot."expiryDate", lot.recalled, sl."lotId" IS NOT NULL AS "hasLot"
    FROM stock_lines sl LEFT JOIN lots lot ON lot.id = sl."lotId"
    WHERE sl."organizationId" = ${organizationId}
      AND ((sl."productMasterId", sl."locationId") IN (SELECT * FROM unnest(${stockOf.map((p) => p.productMasterId)}::text[], ${stockOf.map((p) => p.locationId)}::text[]))
           ${lineIds.length ? Prisma.sql`OR sl.id = ANY(${lineIds}::text[])` : Prisma.empty})
    ORDER BY sl.id
    FOR UPDATE OF sl`;
  // The locked lines as the session's changes leave them.
  const stock = new Map(locked.map((line) => [line.id, line]));
  const byPair = new Map<string, Candidate[]>();
  for (const line of locked) {
    const key = pairKey(line.productMasterId, line.locationId);
    (byPair.get(key) ?? byPair.set(key, []).get(key)!).push(line);
  }
  const today = startOfTodayUtc();
  const changes: StockChange[] = [];

  /** Walks the usable lines of the request first-expiry-first-out, applying `take` to each up to what it has available. */
  const allocate = ({ productMasterId, locationId, quantity, lotId, binId }: StockRequest, take: (line: Candidate, units: number) => void) => {
    const candidates = (byPair.get(pairKey(productMasterId, locationId)) ?? [])
      .filter((s) => (lotId == null || s.lotId === lotId) && (binId == null || s.binId === binId))
      .filter((s) => !lineExcluded(s.hasLot ? { expiryDate: s.expiryDate, recalled: Boolean(s.recalled) } : null, {}, today))
      .sort(fefo);
    const allocations: Allocation[] = [];
    let left = quantity;
    for (const candidate of candidates) {
      if (!left) break;
      const units = Math.min(left, availableQty(candidate));
      if (units <= 0) continue;
      take(candidate, units);
      allocations.push({ stockLineId: candidate.id, quantity: units, lotId: candidate.lotId, binId: candidate.binId });
      left -= units;
    }
    return allocations;
  };

  return {
    release(stockLineId, quantity, source) {
      const line = stock.get(stockLineId);
      const released = Math.min(quantity, line?.qtyReserved ?? 0);
      if (released <= 0) return 0;
      changes.push({ ...source, stockLineId, deltas: { RESERVED: -released } });
      line!.qtyReserved -= released;
      return released;
    },
    reserve: (request, source) => allocate(request, (line, take) => {
      changes.push({ ...source, stockLineId: line.id, deltas: { RESERVED: take } });
      line.qtyReserved += take;
    }),
    withdraw: (request, source) => allocate(request, (line, take) => {
      changes.push({ ...source, stockLineId: line.id, deltas: { ON_HAND: -take } });
      line.qtyOnHand -= take;
    }),
    // Made in order, each change keeps the quantity rule on the locked values, as the series writer asks.
    write: () => applyStockChangeSeries(ctx, changes.splice(0)),
  };
}
