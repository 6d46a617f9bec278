// Machine description, the summary table and the BENCHMARKS.md section of a benchmark run.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { LoadResult } from './load-generator.js';
import { recordBenchmarkSection } from './benchmarks-file.js';

export interface Row {
  backend: string;
  target: string;
  result: LoadResult;
  /** requests/s divided by the bare server's on the same backend. */
  ratio?: number;
  /** CPU milliseconds per request of the server process and of its PostgreSQL backends. */
  cpu?: { serverMs: number; databaseMs: number };
  /** Share (0..1) of the machine's CPU that other processes used during the run. */
  otherShare: number;
  /** Concurrent connections of the load generator. */
  connections?: number;
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  postgres?: string;
  pglite: string;
}

export function describeMachine(root: string, postgres?: string): Machine {
  let count = cpus().length;
  try {
    count = Number(execFileSync('nproc', { encoding: 'utf8' }).trim()) || count;
  } catch {
    // no nproc: keep os.cpus()
  }
  let cpuModel = cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1]?.trim() ?? cpuModel;
  } catch {
    // not Linux
  }
  const pglite = JSON.parse(readFileSync(`${root}/node_modules/@electric-sql/pglite/package.json`, 'utf8')).version as string;
  return { cpus: count, cpuModel, memoryGiB: totalmem() / 2 ** 30, node: process.version, postgres, pglite };
}

const HEAD = ['Backend', 'Target', 'Requests/s', 'p50 (ms)', 'p99 (ms)', 'Errors / non-2xx', 'vs bare', 'CPU ms/req: Node', 'CPU ms/req: PostgreSQL', 'Other work'];

/** A row's cells under HEAD; other tables insert their own columns. */
export function cells(row: Row): string[] {
  const r = row.result;
  return [
    row.backend,
    row.target,
    r.requestsPerSec.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    `${r.errors + r.timeouts} / ${r.non2xx}`,
    row.ratio === undefined ? '' : row.ratio.toFixed(2),
    row.cpu ? row.cpu.serverMs.toFixed(2) : '',
    row.cpu ? (row.backend === 'PGlite' ? 'in Node' : row.cpu.databaseMs.toFixed(2)) : '',
    `${(row.otherShare * 100).toFixed(0)}%`,
  ];
}

/** Columns padded to their widest cell: the first `textColumns` to the left, the numbers after them to the right. */
export function alignedTable(head: string[], rows: string[][], textColumns: number): string {
  const all = [head, ...rows];
  const widths = head.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((c, i) => (i >= textColumns ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

export function textTable(rows: Row[]): string {
  return alignedTable(HEAD, rows.map(cells), 2);
}

function markdownTable(rows: Row[]): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [line(HEAD), line(HEAD.map((_, i) => (i >= 2 ? '---:' : '---'))), ...rows.map((r) => line(cells(r)))].join('\n');
}

export function verdict(rows: Row[]): string {
  const rest = rows.find((r) => r.backend === 'PostgreSQL' && r.target.startsWith('REST'));
  if (rest?.ratio === undefined) return 'Target (REST at least half the bare server on PostgreSQL): not measured (no PostgreSQL).';
  return `Target (REST at least half the bare server on PostgreSQL): ${rest.ratio >= 0.5 ? 'met' : 'NOT met'} (${rest.ratio.toFixed(3)}).`;
}

export interface RunSettings {
  mode: string;
  duration: number;
  warmup: number;
  connections: number;
  products: number;
  rounds: number;
}

export const sectionStamp = (date: Date) => date.toISOString().slice(0, 16).replace('T', ' ');

export function machineLine(machine: Machine): string {
  return (
    `Machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB.toFixed(1)} GiB memory; Node ${machine.node}; ` +
    `PostgreSQL ${machine.postgres ?? 'not available'}; PGlite ${machine.pglite}. ` +
    'Service, database and load generator share this machine.'
  );
}

export function markdownSection(date: Date, machine: Machine, settings: RunSettings, rows: Row[], notes: string[]): string {
  return [
    `## ${sectionStamp(date)} UTC (${settings.mode})`,
    '',
    `${settings.duration} s per target after a ${settings.warmup} s warm-up, ${settings.connections} connections, ` +
      (settings.rounds > 1 ? `best of ${settings.rounds} rounds, ` : '') +
      `${settings.products.toLocaleString('en')} products in the organization, \`limit=50\`.`,
    '',
    machineLine(machine),
    '',
    markdownTable(rows),
    '',
    verdict(rows),
    ...notes.map((n) => `\n${n}`),
    '',
  ].join('\n');
}

const HEADER = `# Benchmarks

Produced by \`npm run bench\` (bench/run.ts). Below the method: the latest section of each benchmark (a run
replaces the one of its kind); every earlier section is in [bench/history.md](bench/history.md), newest first.
\`npm run bench -- --quick\` measures 3 s per target; \`BENCH_DURATION\`, \`BENCH_CONNECTIONS\`
(or \`--duration\`, \`--connections\`) and \`BENCH_DATABASE_URL\` change the defaults (10 s, 32,
postgresql://postgres@127.0.0.1:5432/postgres).

Method: 10,000 products are loaded into a scratch database (PostgreSQL) or a temporary PGlite folder.
The service runs as its own process, as \`npm start\` runs it (compiled: \`node --max-semi-space-size=64 dist/src/main.js\`),
and autocannon as another. Targets:

- **REST**: \`GET /api/products?limit=50\` with an API key (Bearer).
- **REST, rate limits off**: the same with every request limit at 0; the other service targets run with the
  rate limiter on (its default store) and limits raised above what the load reaches (bench/harness/rate-limit-env.ts).
  The service with the limiter on and the one with it off run side by side and are measured in alternating
  rounds (bench/server/products-rate-limit.ts); the note under the table gives the median cost over the pairs.
- **GraphQL**: \`POST /graphql\` \`{ productsPage(limit: 50) { items { id sku name description organizationId createdAt updatedAt } page limit total totalPages } }\`.
- **bare**: bench/harness/bare-server.ts, \`node:http\` with \`pg\` (pool of 10, like the service) or PGlite, doing the
  same work per request as the service: API key by SHA-256 hash joined with its organization (kept 5 s, as
  API_KEY_CACHE_SECONDS keeps it), then the 50 newest products with the total from the products counter
  (docs/lists.md) in one statement, the service's, prepared per connection, answered as \`{data, meta}\` (its body is
  checked to equal the REST body). Until 2026-11-28 it counted the table on every request and looked the key up
  every time: earlier sections' ratios are against that slower yardstick; until 2026-11-29 the page and the count were
  two statements in parallel, in the service and in the bare server alike.

One server runs at a time. "vs bare" is requests/s divided by the bare server's on the same backend.
Latencies are autocannon's (whole milliseconds). "CPU ms/req" is the CPU time (user + system, from
/proc, warm-up included) of the server process and of the PostgreSQL backends serving the scratch
database, divided by the requests: unlike requests/s it hardly depends on what else runs on the machine.
PGlite runs inside the server process, so its work is in the Node column. "Other work" is the share of
the machine's CPU (all cores) that processes other than the server, its database backends and the load
generator used during the run: when it is high, requests/s and latencies are understated.

\`npm run bench -- --products\` runs only the product-list part and \`--inventory\` only the inventory part
(default: both; each part records its own dated section).

Inventory method (issue 3, bench/inventory/): on top of the 10,000 products, 5 locations, one lot per
product and location (expiry dates over the next year, 2% already expired, 0.5% recalled), one stock
line per product, location and lot (50,000 lines; on hand 100–1,000, a quarter of them 10% reserved) and
3 channels with a SHARE or FIXED allocation policy at every location, loaded with SQL. Every request
differs (autocannon \`setupRequest\`):

- **availability check**: \`POST /api/inventory/availability/check\` with 100 random (SKU, location) items.
- **channel-location page**: \`GET /api/inventory/channel-location?locationId=…&limit=200&page=N\`, random
  location and page (1–50).
- **adjust, 10,000 lines**: \`POST /api/inventory/adjust\` \`{inventoryItemId, delta: ±1, reasonCodeId: "COUNT_CORRECTION"}\`
  on a random one of the 10,000 lines of location 5, which all start with 1,000 on hand.
- **adjust, one hot line**: the same with every request on one line (also starting at 1,000).
- **bare node:http** yardsticks (bench/harness/bare-inventory.ts) for the check and the adjustment across lines:
  the same API-key check; for the check the service's query and rule; for the adjustment the reason code
  lookup, then one statement that adds the delta under the service's guard and writes the ledger row from
  the updated line (\`UPDATE … RETURNING\` feeding \`INSERT\`). Their check answers are compared with the service's.

Lost-update check (bench/inventory/lost-update-check.ts), once the servers have stopped: for every line an adjustment
target used, on hand = 1,000 + Σ of its ADJUSTMENT ledger rows; every 2xx answer's ledger row (its id is
in the answer) exists, on the requested line with the requested delta; the only other rows belong to
requests that were cut off in flight when a run stopped (sent, never answered). Goals, on PostgreSQL:
availability check p99 under 50 ms; at least 1,000 adjustments/s across lines with zero lost updates.
PGlite serves one query at a time, so its inventory targets use 8 connections (\`--pglite-connections\`).
\`npx tsx bench/inventory/breakdown.ts [N] [adjust|check|page]\` times the inventory requests piece by piece.

`;

/** Records a run's section in BENCHMARKS.md (the latest of its kind; the one it replaces goes to bench/history.md). */
export function appendToBenchmarks(root: string, section: string) {
  recordBenchmarkSection(root, section, HEADER);
}
