// Reserving stock for a document (an order now; shipments and stock requests later), taking stock out
// of a location (transfers, bin moves, expired stock sent for destruction) and putting it on hold:
// first-expiry-first-out over the lots of a product at a location.
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
export type ReservationSource = Pick<StockChange, 'transactionType' | 'sourceType' | 'sourceId' | 'comment' | 'reasonCodeId' | 'reasonCode'>;

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
  /** Only the line of exactly this lot and bin, absent meaning none (put-away takes the un-binned line of a lot). */
  exact?: boolean;
  /**
   * The day the units will be used (a booking's week), when later than today: reserve() then also skips lots
   * that expire before it, counting the minimum shelf life from that day instead of from today.
   */
  usedFrom?: Date | null;
}

export interface Reservations {
  /** Releases up to `quantity` reserved units of a locked line (no more than it has reserved); returns the units released. */
  release(stockLineId: string, quantity: number, source: ReservationSource): number;
  /**
   * Reserves up to `quantity` units of the product at the location, first-expiring lots first (lines
   * without expiry last), skipping expired, recalled and short-dated lots (less shelf life left than the
   * minimum of the product, else of the organization). Returns the allocations, which may add
   * up to less than asked (the rest is not available: backordered).
   */
  reserve(request: StockRequest, source: ReservationSource): Allocation[];
  /**
   * Takes up to `quantity` available units out of the location (on hand goes down: the units leave,
   * for example on a transfer's truck), choosing lines as reserve() does (short-dated lots included), only from the given lot and
   * bin when named. Returns the allocations, which may add up to less than asked.
   */
  withdraw(request: StockRequest, source: ReservationSource): Allocation[];
  /**
   * Takes up to `quantity` units out of the location for destruction (a transfer to a destruction
   * location): only from the line of exactly the request's lot and bin (absent meaning none), whatever its
   * lot's state (expired, recalled or not: what may be destroyed is the caller's rule), the units already
   * marked expired first, then the available ones; on hand and expired go down together, so the quantity
   * rule holds. Reserved, held, picked and recalled units stay. Returns the allocations, which may add up
   * to less than asked.
   */
  withdrawExpired(request: StockRequest, source: ReservationSource): Allocation[];
  /**
   * What reserve() would do for the request, changing nothing: every line of the product at the location
   * (of the named lot and bin), first expiry first, with the units reserve() would take from it or why it
   * takes none. Lot control answers with it, so its answer is the pick's.
   */
  review(request: StockRequest): LineReview[];
  /**
   * Puts on hold up to `quantity` available units (every available unit when null) of the given locked
   * lines, first-expiring lots first. Unlike reserve(), expired, recalled and short-dated lots are held
   * too: a hold quarantines whatever is there. Returns the allocations, which may add up to less than asked.
   */
  hold(lineIds: string[], quantity: number | null, source: ReservationSource): Allocation[];
  /** Turns up to `quantity` reserved units of a locked line into picked ones (off the shelf, in the tote); returns the units picked. */
  pick(stockLineId: string, quantity: number, source: ReservationSource): number;
  /** Puts up to `quantity` picked units of a locked line back on the shelf, available again; returns the units returned. */
  unpick(stockLineId: string, quantity: number, source: ReservationSource): number;
  /** Takes up to `quantity` picked units of a locked line out of the location (on hand and picked go down together); returns the units shipped. */
  shipPicked(stockLineId: string, quantity: number, source: ReservationSource): number;
  /** Takes up to `quantity` reserved units of a locked line out of the location (on hand and reserved go down together); returns the units shipped. */
  shipReserved(stockLineId: string, quantity: number, source: ReservationSource): number;
  /** Writes every release and reservation, in the order they were made, with their ledger rows. */
  write(): Promise<void>;
}

/** Why reserve() takes nothing from a line; null when it may take from it. */
export type LineRefusal = 'EXPIRED' | 'RECALLED' | 'SHORT_DATED' | 'ON_HOLD' | 'NO_AVAILABLE_UNITS';

/** One line as review() sees it. */
export interface LineReview extends Allocation {
  expiryDate: Date | null;
  available: number;
  /** Days of shelf life the line's lot must have left (product's minimum, else the organization's, else 0). */
  minShelfLifeDays: number;
  refusal: LineRefusal | null;
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
  minShelfLifeDays: number;
};

const DAY_MS = 86_400_000;

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
           sl."qtyRecalled", sl."qtyExpired", lot."expiryDate", lot.recalled, sl."lotId" IS NOT NULL AS "hasLot",
           COALESCE(pm."minShelfLifeDays", org."minShelfLifeDays", 0)::int AS "minShelfLifeDays"
    FROM stock_lines sl LEFT JOIN lots lot ON lot.id = sl."lotId"
      JOIN product_masters pm ON pm.id = sl."productMasterId" JOIN organizations org ON org.id = sl."organizationId"
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

  const linesOf = ({ productMasterId, locationId, lotId, binId, exact }: StockRequest) =>
    (byPair.get(pairKey(productMasterId, locationId)) ?? [])
      .filter((s) => (exact ? s.lotId === (lotId ?? null) && s.binId === (binId ?? null) : (lotId == null || s.lotId === lotId) && (binId == null || s.binId === binId)))
      .sort(fefo);

  /** Why a line of a lot may not be taken from (`shelfLife`: also refuse lots with too little shelf life left, as picks do). */
  const refusalOf = (line: Candidate, shelfLife: boolean, usedFrom?: Date | null): LineRefusal | null => {
    if (line.hasLot && lineExcluded({ expiryDate: line.expiryDate, recalled: Boolean(line.recalled) }, {}, today)) return line.recalled ? 'RECALLED' : 'EXPIRED';
    const from = Math.max(today.getTime(), usedFrom?.getTime() ?? 0);
    if (shelfLife && line.hasLot && line.expiryDate && new Date(line.expiryDate).getTime() < from + line.minShelfLifeDays * DAY_MS) return 'SHORT_DATED';
    if (availableQty(line) > 0) return null;
    return line.qtyOnHold > 0 ? 'ON_HOLD' : 'NO_AVAILABLE_UNITS';
  };

  /** Takes from `lines` in their order, up to `unitsOf(line)` of each, until `quantity` is allocated. */
  const walk = (lines: Candidate[], quantity: number, unitsOf: (line: Candidate) => number, take: (line: Candidate, units: number) => void) => {
    const allocations: Allocation[] = [];
    let left = quantity;
    for (const candidate of lines) {
      if (!left) break;
      const units = Math.min(left, unitsOf(candidate));
      if (units <= 0) continue;
      take(candidate, units);
      allocations.push({ stockLineId: candidate.id, quantity: units, lotId: candidate.lotId, binId: candidate.binId });
      left -= units;
    }
    return allocations;
  };

  /**
   * Walks the usable lines of the request first-expiry-first-out, applying `take` to each up to what it has
   * available. Reservations (picks) skip short-dated lots; withdrawals (transfers, bin moves) may move them.
   */
  const allocate = (request: StockRequest, shelfLife: boolean, take: (line: Candidate, units: number) => void) =>
    walk(linesOf(request).filter((candidate) => !refusalOf(candidate, shelfLife, request.usedFrom)), request.quantity, availableQty, take);

  /** The line of exactly the request's lot and bin (none meaning none), if the session locked it. */
  const exactLine = ({ productMasterId, locationId, lotId, binId }: StockRequest) =>
    (byPair.get(pairKey(productMasterId, locationId)) ?? []).filter((s) => s.lotId === (lotId ?? null) && s.binId === (binId ?? null));

  /** Moves up to `quantity` units out of the bucket `from` of a locked line (no more than it holds) by the deltas given. */
  const shift = (stockLineId: string, quantity: number, from: 'qtyReserved' | 'qtyPicked', deltas: (units: number) => StockChange['deltas'], source: ReservationSource) => {
    const line = stock.get(stockLineId);
    const units = Math.min(quantity, line?.[from] ?? 0);
    if (units <= 0) return 0;
    const change = deltas(units);
    changes.push({ ...source, stockLineId, deltas: change });
    line!.qtyReserved += change.RESERVED ?? 0;
    line!.qtyPicked += change.PICKED ?? 0;
    line!.qtyOnHand += change.ON_HAND ?? 0;
    return units;
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
    pick: (stockLineId, quantity, source) => shift(stockLineId, quantity, 'qtyReserved', (units) => ({ RESERVED: -units, PICKED: units }), source),
    unpick: (stockLineId, quantity, source) => shift(stockLineId, quantity, 'qtyPicked', (units) => ({ PICKED: -units }), source),
    shipPicked: (stockLineId, quantity, source) => shift(stockLineId, quantity, 'qtyPicked', (units) => ({ PICKED: -units, ON_HAND: -units }), source),
    shipReserved: (stockLineId, quantity, source) => shift(stockLineId, quantity, 'qtyReserved', (units) => ({ RESERVED: -units, ON_HAND: -units }), source),
    reserve: (request, source) => allocate(request, true, (line, take) => {
      changes.push({ ...source, stockLineId: line.id, deltas: { RESERVED: take } });
      line.qtyReserved += take;
    }),
    withdraw: (request, source) => allocate(request, false, (line, take) => {
      changes.push({ ...source, stockLineId: line.id, deltas: { ON_HAND: -take } });
      line.qtyOnHand -= take;
    }),
    hold(lineIds, quantity, source) {
      const allocations: Allocation[] = [];
      let left = quantity ?? Infinity;
      const lines = lineIds.map((id) => stock.get(id)).filter((line): line is Candidate => Boolean(line)).sort(fefo);
      for (const line of lines) {
        const units = Math.min(left, availableQty(line));
        if (units <= 0) continue;
        changes.push({ ...source, stockLineId: line.id, deltas: { ON_HOLD: units } });
        line.qtyOnHold += units;
        allocations.push({ stockLineId: line.id, quantity: units, lotId: line.lotId, binId: line.binId });
        left -= units;
      }
      return allocations;
    },
    // Expired units first (as consumption takes them), then available ones: both are what destruction may take.
    withdrawExpired: (request, source) => walk(exactLine(request), request.quantity, (line) => line.qtyExpired + availableQty(line), (line, take) => {
      const expired = Math.min(take, line.qtyExpired);
      changes.push({ ...source, stockLineId: line.id, deltas: { ON_HAND: -take, EXPIRED: -expired } });
      line.qtyOnHand -= take;
      line.qtyExpired -= expired;
    }),
    review(request) {
      let left = request.quantity;
      return linesOf(request).map((line) => {
        const refusal = refusalOf(line, true, request.usedFrom);
        const quantity = refusal ? 0 : Math.min(left, availableQty(line));
        left -= quantity;
        return {
          stockLineId: line.id, quantity, lotId: line.lotId, binId: line.binId,
          expiryDate: line.expiryDate, available: availableQty(line), minShelfLifeDays: line.minShelfLifeDays, refusal,
        };
      });
    },
    // Made in order, each change keeps the quantity rule on the locked values, as the series writer asks.
    write: () => applyStockChangeSeries(ctx, changes.splice(0)),
  };
}
