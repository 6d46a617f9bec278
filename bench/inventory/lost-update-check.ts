// "Zero lost updates" for an adjustment target, checked in the database once the service has stopped:
//
// - every line the target picks from started at START_ON_HAND, so on hand must equal START_ON_HAND
//   plus the sum of its ADJUSTMENT ledger rows (a lost update leaves a ledger row whose change is not
//   in on hand, or the other way round);
// - every adjustment the service acknowledged (2xx) has its ledger row, on the line and with the delta
//   the request asked for;
// - there are no other ledger rows than those, except for requests that were cut off in flight when a
//   run ended (sent but never answered: the service may still have carried them out).
import { openDatabase } from '../../src/db/database.js';
import type { AdjustRecord } from './request-generators.js';
import { START_ON_HAND } from './data.js';

export interface AdjustCheck {
  ok: boolean;
  lines: number;
  /** Lines whose on hand differs from START_ON_HAND + Σ ledger, and by how many units in all. */
  lostLines: number;
  lostUnits: number;
  ledgerRows: number;
  acknowledged: number;
  /** Acknowledged adjustments without their ledger row (or on another line or with another delta). */
  missing: number;
  /** Ledger rows no 2xx answer acknowledged, and the requests that were never answered. */
  unacknowledgedRows: number;
  unanswered: number;
  summary: string;
}

const fmt = (n: number) => n.toLocaleString('en');

export async function checkAdjustments(
  target: { databaseUrl?: string; dataDir?: string },
  organizationId: string,
  lineIds: string[],
  records: AdjustRecord[],
): Promise<AdjustCheck> {
  const database = await openDatabase({ ...target, migrate: false });
  try {
    const db = database.prisma;
    const ledger = await db.$queryRawUnsafe<{ id: string; stockLineId: string; deltaQty: number }[]>(
      `SELECT id, "stockLineId", "deltaQty" FROM stock_transactions
       WHERE "organizationId" = $1 AND "transactionType" = 'ADJUSTMENT' AND "stockLineId" = ANY($2::text[])`,
      organizationId,
      lineIds,
    );
    const lines = await db.$queryRawUnsafe<{ id: string; qtyOnHand: number }[]>(
      `SELECT id, "qtyOnHand" FROM stock_lines WHERE "organizationId" = $1 AND id = ANY($2::text[])`,
      organizationId,
      lineIds,
    );
    const sums = new Map<string, number>();
    const byId = new Map<string, { stockLineId: string; deltaQty: number }>();
    for (const row of ledger) {
      sums.set(row.stockLineId, (sums.get(row.stockLineId) ?? 0) + row.deltaQty);
      byId.set(row.id, row);
    }
    let lostLines = 0;
    let lostUnits = 0;
    for (const line of lines) {
      const diff = line.qtyOnHand - (START_ON_HAND + (sums.get(line.id) ?? 0));
      if (diff) {
        lostLines++;
        lostUnits += Math.abs(diff);
      }
    }
    let acknowledged = 0;
    let missing = 0;
    const seen = new Set<string>();
    for (const record of records) {
      for (const entry of record.acknowledged) {
        acknowledged++;
        const [id, index, delta] = entry.split(' ');
        const row = byId.get(id!);
        if (!row || seen.has(id!) || row.stockLineId !== lineIds[Number(index)] || row.deltaQty !== Number(delta)) missing++;
        seen.add(id!);
      }
    }
    const unanswered = records.reduce((n, r) => n + r.sent - r.answered, 0);
    const unacknowledgedRows = ledger.length - (acknowledged - missing);
    const ok = lines.length === lineIds.length && lostLines === 0 && missing === 0 && unacknowledgedRows >= 0 && unacknowledgedRows <= unanswered;
    const summary =
      `lost updates: ${lostLines ? `${fmt(lostLines)} lines off by ${fmt(lostUnits)} units in all` : '0'} ` +
      `(on hand = ${fmt(START_ON_HAND)} + Σ ledger on all ${fmt(lines.length)} line(s)); ` +
      `ledger rows ${fmt(ledger.length)} = ${fmt(acknowledged - missing)} acknowledged (2xx)` +
      (missing ? `, ${fmt(missing)} acknowledged adjustments WITHOUT their ledger row` : '') +
      (unacknowledgedRows <= unanswered
        ? ` + ${fmt(unacknowledgedRows)} for requests cut off when a run stopped (${fmt(unanswered)} sent but not answered)`
        : ` + ${fmt(unacknowledgedRows)} rows NO answer acknowledged, more than the ${fmt(unanswered)} requests left unanswered`);
    return { ok, lines: lines.length, lostLines, lostUnits, ledgerRows: ledger.length, acknowledged, missing, unacknowledgedRows, unanswered, summary };
  } finally {
    await database.close();
  }
}
