// Varied requests of the inventory targets, built in the load generator's process (bench/harness/load-generator.ts) by
// autocannon's setupRequest for every request, from the ids the harness wrote to a JSON file.
import { readFileSync } from 'node:fs';

export type GeneratorKind = 'availability' | 'channel-page' | 'adjust' | 'paths';

export interface GeneratorInput {
  skus: string[];
  locationIds: string[];
  /** Stock lines the adjustments pick from (one line: the hot-line target). */
  lineIds: string[];
  /** Pages of the channel-location list (products at a location / 200). */
  pages: number;
  /** Items per availability check. */
  checkItems: number;
  /** Paths with their query, one picked at random per request (kind 'paths': the --warehouse views). */
  paths?: string[];
}

/** What an adjustment run saw: the ledger rows the service acknowledged, and what it never answered. */
export interface AdjustRecord {
  /** "<transaction id> <line index> <delta>" for every 2xx answer. */
  acknowledged: string[];
  /** Requests sent, and answered with any status: the difference was cut off when autocannon stopped or timed out. */
  sent: number;
  answered: number;
  statuses: Record<string, number>;
  /** A few non-2xx bodies, for the report. */
  samples: string[];
}

interface RawRequest {
  path: string;
  body?: string | Buffer;
  [key: string]: unknown;
}

const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;

export function makeGenerator(kind: GeneratorKind, file: string) {
  const input = JSON.parse(readFileSync(file, 'utf8')) as GeneratorInput;
  const record: AdjustRecord = { acknowledged: [], sent: 0, answered: 0, statuses: {}, samples: [] };
  const basePath = (path: string) => path.split('?')[0]!;

  const setupRequest = (req: RawRequest, context: Record<string, unknown>): RawRequest => {
    record.sent++;
    if (kind === 'availability') {
      const items = Array.from({ length: input.checkItems }, () => ({
        sku: pick(input.skus),
        locationId: pick(input.locationIds),
        quantity: 1 + Math.floor(Math.random() * 500),
      }));
      return { ...req, body: JSON.stringify({ items }) };
    }
    if (kind === 'paths') return { ...req, path: pick(input.paths!) };
    if (kind === 'channel-page') {
      const page = 1 + Math.floor(Math.random() * input.pages);
      return { ...req, path: `${basePath(req.path)}?locationId=${encodeURIComponent(pick(input.locationIds))}&limit=200&page=${page}` };
    }
    const line = Math.floor(Math.random() * input.lineIds.length);
    const delta = Math.random() < 0.5 ? 1 : -1;
    context.line = line;
    context.delta = delta;
    return { ...req, body: JSON.stringify({ inventoryItemId: input.lineIds[line], delta, reasonCodeId: 'COUNT_CORRECTION' }) };
  };

  const onResponse = (status: number, body: string, context: Record<string, unknown>) => {
    record.answered++;
    record.statuses[status] = (record.statuses[status] ?? 0) + 1;
    if (status < 200 || status > 299) {
      if (record.samples.length < 5) record.samples.push(`${status} ${body.slice(0, 300)}`);
      return;
    }
    if (kind !== 'adjust') return;
    // The ledger row's id: the first "id" inside "transaction" (the GraphQL selection puts it first).
    const id = /"transaction":\{"id":"([^"]+)"/.exec(body)?.[1] ?? 'missing';
    record.acknowledged.push(`${id} ${context.line} ${context.delta}`);
  };

  return { setupRequest, onResponse, record };
}
