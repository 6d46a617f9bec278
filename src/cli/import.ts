// Loader: `npm run import -- <kind> <file.csv|file.json> [--url …] [--key …] [--batch N]`.
// Reads the file, posts it to POST /api/import/<kind> in batches (one job each, one after the other so a
// later row with the same key wins, as it would in one request), shows progress on stderr by polling
// GET /api/import/status/<jobId>, then prints the counts and the first errors on stdout.
// Exit codes: 0 every job COMPLETED (rows may have been rejected), 1 a job FAILED, the server answered
// an error or went away (then it says which job to check and the --skip that resumes), 2 bad arguments or
// an unreadable file. With --dry-run nothing is written (POST ...?dryRun=true): 0 every row is valid, 3 some
// rows would be rejected (listed), 1 and 2 as above.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CsvError, csvRows, type CsvRow } from './csv.js';

const USAGE = `Usage: npm run import -- <kind> <file.csv|file.json> [--url <server>] [--key <api key>] [--batch <rows>] [--skip <rows>] [--dry-run]

  kind      catalog | inventory | suppliers | purchase-orders | orders | demand-history
  file      CSV with a header row naming the fields, or JSON holding an array of rows
  --url     server address (default: $SCM_URL or http://localhost:4000)
  --key     API key with the import:write and import:read scopes (default: $SCM_API_KEY)
  --batch   rows per request (default 10000)
  --skip    leave out the first rows of the file (to resume: the loader prints the number when the server
            goes away; a row sent twice is applied by its key, so it ends the same)
  --dry-run validate every row as the import would and write nothing; exit code 3 when some rows would
            be rejected (they are listed), 0 when all are valid

Purchase orders and orders in CSV: one line per order line, repeating the order's columns; lines with the
same number (purchase orders) or externalId (orders) are sent as one order. Line columns: sku, quantity,
and for purchase orders unitCost and lineExpectedAt (the line's own expected date); the rest are the
order's. Empty cells are left out, so the server's defaults apply. Error line numbers are file lines.`;

interface KindShape {
  /** Columns sent as numbers when they hold a number. */
  numbers: string[];
  /** For orders: the key that groups CSV lines into one order, and the columns that belong to a line. */
  group?: { key: string; lineFields: string[] };
}

const KINDS: Record<string, KindShape> = {
  catalog: { numbers: ['unitCost'] },
  inventory: { numbers: ['onHand', 'reserved', 'threshold'] },
  suppliers: { numbers: ['leadTimeDays'] },
  // A line's own expected date comes from the column lineExpectedAt (expectedAt is the order's).
  'purchase-orders': { numbers: ['quantity', 'unitCost'], group: { key: 'number', lineFields: ['sku', 'quantity', 'unitCost', 'lineExpectedAt'] } },
  orders: { numbers: ['quantity'], group: { key: 'externalId', lineFields: ['sku', 'quantity'] } },
  'demand-history': { numbers: ['actualDemand', 'actualUnits', 'forecastUnits'] },
};

class UsageError extends Error {}
class ServerError extends Error {}
/** The server could not be reached, or answered that it is stopping or unavailable. */
class ServerGoneError extends ServerError {}

/** One row of the request and the file lines it came from (several for a grouped order). */
interface Item {
  data: unknown;
  lines: number[];
}

function toValue(column: string, value: string, shape: KindShape): unknown {
  if (!shape.numbers.includes(column)) return value;
  const trimmed = value.trim();
  // Anything not plainly a number is sent as is, so the server rejects the row with its reason.
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : value;
}

function itemsFromCsv(rows: CsvRow[], shape: KindShape): Item[] {
  const convert = (values: Record<string, string>, only?: (column: string) => boolean) =>
    Object.fromEntries(
      Object.entries(values)
        .filter(([column]) => !only || only(column))
        .map(([column, value]) => [column === 'lineExpectedAt' ? 'expectedAt' : column, toValue(column, value, shape)]),
    );
  if (!shape.group) return rows.map((row) => ({ data: convert(row.values), lines: [row.line] }));
  const { key, lineFields } = shape.group;
  const isLine = (column: string) => lineFields.includes(column);
  const groups: { header: Record<string, unknown>; lines: Record<string, unknown>[]; fileLines: number[] }[] = [];
  const byKey = new Map<string, (typeof groups)[number]>();
  for (const row of rows) {
    const id = row.values[key];
    // A line without the order key goes alone, so the server names what is missing.
    let group = id === undefined ? undefined : byKey.get(id);
    if (!group) {
      group = { header: convert(row.values, (c) => !isLine(c)), lines: [], fileLines: [] };
      groups.push(group);
      if (id !== undefined) byKey.set(id, group);
    }
    group.lines.push(convert(row.values, isLine));
    group.fileLines.push(row.line);
  }
  return groups.map((group) => ({ data: { ...group.header, lines: group.lines }, lines: group.fileLines }));
}

async function readItems(file: string, shape: KindShape): Promise<Item[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (/\.json$/i.test(file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed)) throw new UsageError(`${file} must hold a JSON array of rows`);
    return parsed.map((data) => ({ data, lines: [] }));
  }
  try {
    return itemsFromCsv(csvRows(text), shape);
  } catch (error) {
    if (error instanceof CsvError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
}

interface JobError {
  row: number;
  field?: string | null;
  message: string;
}

/** What POST /api/import/<kind>?dryRun=true answers. */
interface DryRun {
  totalRows: number;
  validRows: number;
  rejectedRows: number;
  errorCount: number;
  errors: JobError[];
}

interface Job {
  jobId: string;
  state: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
  totalRows: number;
  processedRows: number;
  rejectedRows: number;
  errors?: JobError[];
  errorCount?: number;
  failureReason?: string | null;
}

async function request<T = Job>(url: string, key: string, init: { method: string; body?: unknown }): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: { authorization: `Bearer ${key}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch (error) {
    throw new ServerGoneError(`Cannot reach ${url}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new ServerGoneError(`${init.method} ${url}: the connection closed mid-answer (${(error as Error).message})`);
  }
  if (response.status >= 502 && response.status <= 504) throw new ServerGoneError(`${init.method} ${url} answered ${response.status}: ${text}`);
  if (!response.ok) throw new ServerError(`${init.method} ${url} answered ${response.status}:\n${text}`);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ServerError(`${init.method} ${url} answered ${response.status} with a body that is not JSON:\n${text}`);
  }
}

/** Progress on stderr: one redrawn line on a terminal, a line every few seconds otherwise. */
class Progress {
  private readonly started = Date.now();
  private lastPrinted = 0;
  readonly tty = Boolean(process.stderr.isTTY);

  constructor(private readonly total: number) {}

  update(done: number, final = false) {
    const now = Date.now();
    if (!this.tty && !final && now - this.lastPrinted < 3000) return;
    this.lastPrinted = now;
    const fraction = this.total ? Math.min(done / this.total, 1) : 1;
    const percent = Math.floor(fraction * 100);
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(done / seconds) : 0;
    const counts = `${percent}% ${done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')} rows ${rate.toLocaleString('en-US')} rows/s`;
    if (this.tty) {
      const width = 30;
      const filled = Math.round(fraction * width);
      process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${counts}\x1b[K${final ? '\n' : ''}`);
    } else {
      process.stderr.write(`${counts}\n`);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where an error points in the file: the line of the row, or of the order line its field names. */
function place(item: Item | undefined, row: number, field: string | null | undefined, json: boolean): string {
  if (!item || json || item.lines.length === 0) return `row ${row}`;
  const lineIndex = field?.match(/^lines(?:\.|\[)(\d+)/)?.[1];
  // Order line indexes in errors are 0-based array positions.
  const line = lineIndex !== undefined ? item.lines[Number(lineIndex)] : undefined;
  return `line ${line ?? item.lines[0]}`;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { url: { type: 'string' }, key: { type: 'string' }, batch: { type: 'string' }, skip: { type: 'string' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [kind, file, ...extra] = positionals;
  if (!kind || !file) throw new UsageError('Give the kind of rows and the file to import.');
  if (extra.length) throw new UsageError(`Unexpected argument: ${extra[0]}`);
  const shape = KINDS[kind];
  if (!shape) throw new UsageError(`Unknown kind "${kind}"; use one of: ${Object.keys(KINDS).join(', ')}`);
  if (!/\.(csv|json)$/i.test(file)) throw new UsageError(`${file}: the file must end in .csv or .json`);
  const key = values.key ?? process.env.SCM_API_KEY;
  if (!key) throw new UsageError('Give an API key with --key or the SCM_API_KEY environment variable.');
  const batch = Number(values.batch ?? 10_000);
  if (!Number.isInteger(batch) || batch < 1) throw new UsageError(`--batch must be a positive whole number, got ${values.batch}`);
  const skip = Number(values.skip ?? 0);
  if (!Number.isInteger(skip) || skip < 0) throw new UsageError(`--skip must be a whole number of rows, got ${values.skip}`);
  const base = (values.url ?? process.env.SCM_URL ?? 'http://localhost:4000').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(base)) throw new UsageError(`--url must start with http:// or https://, got ${base}`);

  const items = await readItems(file, shape);
  if (skip > items.length) throw new UsageError(`--skip ${skip} leaves nothing to send: the file has ${items.length} rows`);
  const json = /\.json$/i.test(file);
  if (values['dry-run']) return dryRun({ kind, file, items, skip, batch, base, key, json });
  const started = Date.now();
  const progress = new Progress(items.length);
  const totals = { rows: 0, processed: 0, rejected: 0, errors: 0 };
  const errors: string[] = [];
  const jobIds: string[] = [];
  let failure: string | undefined;
  progress.update(skip);
  for (let offset = skip; offset < items.length && !failure; offset += batch) {
    const slice = items.slice(offset, offset + batch);
    const rows = `rows ${offset + 1}–${offset + slice.length}`;
    const gone = (error: unknown, what: string, resumeAt: number, job?: string) => {
      if (!(error instanceof ServerGoneError) || (offset === skip && !job)) return error;
      return new ServerError(wentAway({ what, cause: error.message, done: jobIds.slice(0, job ? -1 : undefined), skip, offset, resumeAt, job, base, command: resumeCommand(kind, file) }));
    };
    let job: Job;
    try {
      job = await request(`${base}/api/import/${kind}`, key, { method: 'POST', body: slice.map((item) => item.data) });
    } catch (error) {
      throw gone(error, `while receiving ${rows}; they may not have been accepted`, offset);
    }
    jobIds.push(job.jobId);
    process.stderr.write(`${progress.tty ? '\r\x1b[K' : ''}job ${job.jobId}: ${rows}\n`);
    while (job.state !== 'COMPLETED' && job.state !== 'FAILED') {
      progress.update(offset + job.processedRows);
      await sleep(200);
      try {
        job = await request(`${base}/api/import/status/${encodeURIComponent(job.jobId)}`, key, { method: 'GET' });
      } catch (error) {
        throw gone(error, `while job ${job.jobId} was applying ${rows}`, offset + slice.length, job.jobId);
      }
    }
    totals.rows += job.totalRows;
    totals.processed += job.processedRows;
    totals.rejected += job.rejectedRows;
    totals.errors += job.errorCount ?? job.errors?.length ?? 0;
    for (const error of job.errors ?? []) {
      if (errors.length >= 20) break;
      const where = place(slice[error.row - 1], offset + error.row, error.field, json);
      errors.push(`  ${where}${error.field ? `, ${error.field}` : ''}: ${error.message}`);
    }
    if (job.state === 'FAILED') failure = `job ${job.jobId} failed: ${job.failureReason ?? 'no reason given'}`;
    progress.update(offset + job.processedRows);
  }
  progress.update(totals.processed, true);

  const seconds = (Date.now() - started) / 1000;
  const out = [
    `Import of ${kind} from ${path.basename(file)}: ${failure ? 'FAILED' : 'COMPLETED'}`,
    `  rows:      ${items.length}${skip ? ` (the first ${skip} skipped)` : ''}${totals.rows !== items.length - skip ? ` (${totals.rows} sent before stopping)` : ''}`,
    `  processed: ${totals.processed}`,
    `  rejected:  ${totals.rejected}`,
    `  jobs:      ${jobIds.join(', ') || 'none (the file has no rows)'}`,
    `  time:      ${seconds.toFixed(1)}s (${seconds > 0 ? Math.round(totals.processed / seconds) : totals.processed} rows/s)`,
  ];
  if (failure) out.push(failure);
  if (errors.length) out.push(`Errors (first ${errors.length} of ${totals.errors}):`, ...errors);
  process.stdout.write(`${out.join('\n')}\n`);
  return failure ? 1 : 0;
}

/** Validates the file batch by batch (nothing is written) and lists what the import would reject. */
async function dryRun(run: { kind: string; file: string; items: Item[]; skip: number; batch: number; base: string; key: string; json: boolean }): Promise<number> {
  const totals = { rows: 0, valid: 0, rejected: 0, errors: 0 };
  const errors: string[] = [];
  for (let offset = run.skip; offset < run.items.length; offset += run.batch) {
    const slice = run.items.slice(offset, offset + run.batch);
    const found = await request<DryRun>(`${run.base}/api/import/${run.kind}?dryRun=true`, run.key, { method: 'POST', body: slice.map((item) => item.data) });
    totals.rows += found.totalRows;
    totals.valid += found.validRows;
    totals.rejected += found.rejectedRows;
    totals.errors += found.errorCount;
    for (const error of found.errors) {
      if (errors.length >= 20) break;
      errors.push(`  ${place(slice[error.row - 1], offset + error.row, error.field, run.json)}${error.field ? `, ${error.field}` : ''}: ${error.message}`);
    }
  }
  const out = [
    `Dry run of ${run.kind} from ${path.basename(run.file)}: nothing was written`,
    `  rows:      ${run.items.length}${run.skip ? ` (the first ${run.skip} skipped)` : ''}`,
    `  valid:     ${totals.valid}`,
    `  rejected:  ${totals.rejected}`,
  ];
  if (errors.length) out.push(`Errors (first ${errors.length} of ${totals.errors}):`, ...errors);
  process.stdout.write(`${out.join('\n')}\n`);
  return totals.rejected ? 3 : 0;
}

/** The command that was run, for the resume hint (without --skip and without the key). */
function resumeCommand(kind: string, file: string): string {
  const args = process.argv.slice(2);
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--skip' || arg === '--key') i++;
    else if (!arg.startsWith('--skip=') && !arg.startsWith('--key=')) kept.push(arg);
  }
  return `npm run import -- ${kept.length ? kept.join(' ') : `${kind} ${file}`}`;
}

/** What to do when the server went away mid-import: which job to check, and where to resume. */
function wentAway(at: { what: string; cause: string; done: string[]; skip: number; offset: number; resumeAt: number; job?: string; base: string; command: string }): string {
  const lines = [`\nThe server went away ${at.what} (${at.cause}).`];
  if (at.offset > at.skip) lines.push(`Rows ${at.skip + 1}–${at.offset} were applied by job${at.done.length > 1 ? 's' : ''} ${at.done.join(', ')}.`);
  if (at.job) {
    lines.push(
      `The server resumes job ${at.job} when it starts again. Check it with:`,
      `  curl -H "authorization: Bearer $SCM_API_KEY" ${at.base}/api/import/status/${at.job}`,
      `When it is COMPLETED, send the rest with:`,
    );
  } else {
    lines.push('When the server is back, send the rest (a row sent twice is applied by its key, so it ends the same) with:');
  }
  lines.push(`  ${at.command} --skip ${at.resumeAt}`);
  return lines.join('\n');
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
