import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { type ProcessRun, runEntry, runProcess } from '../support/processes.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Every run is a real `npm run import` process (tsx start-up included), so the runs are few.
const SLOW = 60_000;

let server: TestServer;
let a: Tenant;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ IMPORT_WORKERS: '1', IMPORT_POLL_MS: '100' });
  a = await createTenant(server.app.prisma);
  // Products the stock and demand files name (the catalog test loads its own).
  for (const sku of ['CLI-1', 'CLI-2', 'CLI-3']) {
    expect((await server.call('POST', '/api/products', { token: a.key, body: { sku, name: `Product ${sku}` } })).status).toBe(201);
  }
  dir = await mkdtemp(path.join(os.tmpdir(), 'scm-import-cli-'));
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function importCli(args: string[], env: Record<string, string> = {}, viaNpm = false): Promise<ProcessRun> {
  const vars = { SCM_URL: server.url, SCM_API_KEY: a.key, ...env };
  return viaNpm ? runProcess('npm', ['run', '--silent', 'import', '--', ...args], vars) : runEntry('src/cli/import.ts', args, vars);
}

async function file(name: string, text: string) {
  const full = path.join(dir, name);
  await writeFile(full, text);
  return full;
}

/** The counts the CLI printed. */
function counts(stdout: string) {
  const value = (label: string) => Number(stdout.match(new RegExp(`^\\s+${label}:\\s+(\\d+)`, 'm'))?.[1]);
  return { rows: value('rows'), processed: value('processed'), rejected: value('rejected') };
}

async function product(sku: string) {
  const res = await server.call('GET', `/api/products?search=${encodeURIComponent(sku)}`, { token: a.key });
  expect(res.status).toBe(200);
  return res.body.data.find((p: any) => p.sku === sku);
}

describe('npm run import', () => {
  it('loads a catalog CSV (quoted fields, escaped quotes, CRLF) and reports the counts', async () => {
    const csv = await file(
      'catalog.csv',
      'externalId,name,description,unitCost\r\n' +
        'CAT-1,"Gloves, nitrile","Box of 100 ""M"" gloves",12.5\r\n' +
        'CAT-2,,"two\r\nlines",\r\n' +
        'CAT-3,Mask,,0.75\r\n',
    );
    const run = await importCli(['catalog', csv], {}, true);
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Import of catalog from catalog.csv: COMPLETED');
    expect(counts(run.stdout)).toEqual({ rows: 3, processed: 3, rejected: 0 });
    // Not a terminal: progress comes as plain lines.
    expect(run.stderr).toMatch(/100% 3\/3 rows/);
    expect(await product('CAT-1')).toMatchObject({ name: 'Gloves, nitrile', description: 'Box of 100 "M" gloves' });
    expect(await product('CAT-2')).toMatchObject({ name: 'CAT-2', description: 'two\r\nlines' });
    expect(await product('CAT-3')).toMatchObject({ name: 'Mask' });
  }, SLOW);

  it('loads stock levels, rejecting a bad row with its file line, and keeps exit code 0', async () => {
    const csv = await file(
      'stock.csv',
      ['sku,locationCode,onHand,reserved,threshold', 'CLI-1,WH1,40,5,10', 'NOPE-404,WH1,1,0,0', `CLI-3,${a.org.id}-${a.warehouse.id},7,,`, 'CLI-2,WH1,ten,0,0', ''].join('\n'),
    );
    const run = await importCli(['inventory', csv, '--url', server.url, '--key', a.key], { SCM_URL: 'http://127.0.0.1:1', SCM_API_KEY: 'wrong' });
    expect(run.code).toBe(0);
    expect(counts(run.stdout)).toEqual({ rows: 4, processed: 4, rejected: 2 });
    expect(run.stdout).toContain('Errors (first 2 of 2):');
    expect(run.stdout).toMatch(/^ {2}line 3, sku: Unknown SKU NOPE-404$/m);
    expect(run.stdout).toMatch(/^ {2}line 5, onHand: Must be a number$/m);
    const stock = await server.call('GET', `/api/inventory?locationId=${a.warehouse.id}&limit=200`, { token: a.key });
    const onHand = (sku: string) => stock.body.items.filter((i: any) => i.productMasterId === skuIds.get(sku));
    const skuIds = new Map([
      ['CLI-1', (await product('CLI-1')).id],
      ['CLI-2', (await product('CLI-2')).id],
      ['CLI-3', (await product('CLI-3')).id],
    ]);
    expect(onHand('CLI-1')).toEqual([expect.objectContaining({ quantityOnHand: 40, quantityReserved: 5 })]);
    expect(onHand('CLI-3')).toEqual([expect.objectContaining({ quantityOnHand: 7, quantityReserved: 0 })]);
    expect(onHand('CLI-2')).toEqual([]);
    const levels = await server.call('GET', `/api/products/${skuIds.get('CLI-1')}/inventory-levels`, { token: a.key });
    expect(levels.body.data).toEqual([expect.objectContaining({ minQuantity: 10 })]);
  }, SLOW);

  it('--dry-run validates a file without writing, listing its bad rows by file line (exit 3), or none (exit 0)', async () => {
    const jobsBefore = await server.app.prisma.importJob.count({ where: { organizationId: a.org.id } });
    const csv = await file('dry.csv', ['sku,locationCode,onHand,reserved,threshold', 'CLI-1,WH1,99,0,0', 'NOPE-405,WH1,1,0,0', 'CLI-2,WH1,ten,0,0', ''].join('\n'));
    const run = await importCli(['inventory', csv, '--dry-run', '--batch', '2']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toContain('Dry run of inventory from dry.csv: nothing was written');
    expect(run.stdout).toMatch(/^ {2}valid: +1$/m);
    expect(run.stdout).toMatch(/^ {2}rejected: +2$/m);
    // The second batch's row is named by its line in the file.
    expect(run.stdout).toMatch(/^ {2}line 3, sku: Unknown SKU NOPE-405$/m);
    expect(run.stdout).toMatch(/^ {2}line 4, onHand: Must be a number$/m);
    const good = await file('dry-good.csv', ['sku,locationCode,onHand,reserved,threshold', 'CLI-1,WH1,99,0,0', ''].join('\n'));
    const clean = await importCli(['inventory', good, '--dry-run']);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/^ {2}rejected: +0$/m);
    expect(await server.app.prisma.importJob.count({ where: { organizationId: a.org.id } })).toBe(jobsBefore);
  }, SLOW);

  it('loads demand history in batches, one job each, mapping row errors back to file lines', async () => {
    const csv = await file(
      'demand.csv',
      [
        'sku,locationCode,date,channel,actualDemand,forecastUnits',
        'CLI-1,WH1,2026-11-04,,30,',
        'CLI-1,WH1,2026-11-11,WEB,12,15',
        'CLI-3,WH1,2026-11-12,,5,6',
        'CLI-3,WH1,not-a-date,,5,6',
        'CLI-3,WH1,2026-11-20,,8,',
      ].join('\n'),
    );
    const run = await importCli(['demand-history', csv, '--batch', '2']);
    expect(run.code).toBe(0);
    expect(counts(run.stdout)).toEqual({ rows: 5, processed: 5, rejected: 1 });
    expect(run.stdout.match(/^ {2}jobs: +(.*)$/m)?.[1]?.split(', ')).toHaveLength(3);
    // The bad row is the second row of the second batch: line 5 of the file.
    expect(run.stdout).toMatch(/^ {2}line 5, date: .+$/m);
    const history = await server.graphql(
      `{ demandHistory(first: 50) { edges { node { product { sku } channel weekStart actualUnits forecastUnits } } } }`,
      {},
      a.key,
    );
    expect(history.body.errors).toBeUndefined();
    const rows = history.body.data.demandHistory.edges.map((e: any) => e.node);
    expect(rows).toHaveLength(4);
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ product: { sku: 'CLI-1' }, channel: 'ALL', weekStart: '2026-11-02', actualUnits: 30, forecastUnits: 30 }),
        expect.objectContaining({ product: { sku: 'CLI-1' }, channel: 'WEB', weekStart: '2026-11-09', actualUnits: 12, forecastUnits: 15 }),
        expect.objectContaining({ product: { sku: 'CLI-3' }, channel: 'ALL', weekStart: '2026-11-09', actualUnits: 5, forecastUnits: 6 }),
        expect.objectContaining({ product: { sku: 'CLI-3' }, channel: 'ALL', weekStart: '2026-11-16', actualUnits: 8, forecastUnits: 8 }),
      ]),
    );
  }, SLOW);

  it('groups purchase order CSV lines by number into one order each, pointing line errors at their file line', async () => {
    const suppliers = await file('suppliers.csv', 'code,name,leadTimeDays\nSUP-1,Acme,14\n');
    expect((await importCli(['suppliers', suppliers])).code).toBe(0);
    const csv = await file(
      'po.csv',
      [
        'number,supplierCode,destinationLocationCode,expectedAt,sku,quantity,unitCost,lineExpectedAt',
        'PO-1,SUP-1,WH1,2026-12-01,CLI-1,10,2.5,',
        'PO-2,SUP-1,WH1,,CLI-1,1,,',
        'PO-1,SUP-1,WH1,2026-12-01,CLI-2,20,,2026-12-08',
        'PO-2,SUP-1,WH1,,CLI-3,-4,,',
      ].join('\n'),
    );
    const run = await importCli(['purchase-orders', csv]);
    expect(run.code).toBe(0);
    // Two orders (requests rows), one rejected because of its second line (file line 5).
    expect(counts(run.stdout)).toEqual({ rows: 2, processed: 2, rejected: 1 });
    expect(run.stdout).toMatch(/^ {2}line 5, lines\.1\.quantity: Must be greater than 0$/m);
    const orders = await server.graphql(
      '{ purchaseOrders(first: 10) { edges { node { number supplier { code } expectedAt lines { lineNumber quantity unitCost expectedAt product { sku } } } } } }',
      {},
      a.key,
    );
    expect(orders.body.errors).toBeUndefined();
    expect(orders.body.data.purchaseOrders.edges.map((e: any) => e.node)).toEqual([
      {
        number: 'PO-1',
        supplier: { code: 'SUP-1' },
        expectedAt: '2026-12-01',
        lines: [
          { lineNumber: 1, quantity: 10, unitCost: 2.5, expectedAt: '2026-12-01', product: { sku: 'CLI-1' } },
          { lineNumber: 2, quantity: 20, unitCost: null, expectedAt: '2026-12-08', product: { sku: 'CLI-2' } },
        ],
      },
    ]);
  }, SLOW);

  it('reads a JSON array too', async () => {
    const json = await file('catalog.json', JSON.stringify([{ externalId: 'CLI-J1', name: 'From JSON' }, { name: 'no id' }]));
    const run = await importCli(['catalog', json]);
    expect(run.code).toBe(0);
    expect(counts(run.stdout)).toEqual({ rows: 2, processed: 2, rejected: 1 });
    expect(run.stdout).toMatch(/^ {2}row 2, externalId: Required$/m);
    expect(await product('CLI-J1')).toMatchObject({ name: 'From JSON' });
  }, SLOW);

  it('exits 1 and prints the body when the server refuses the request', async () => {
    const csv = await file('refused.csv', 'externalId\nCLI-NO\n');
    const run = await importCli(['catalog', csv, '--key', 'not-a-real-key']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('answered 401');
    expect(run.stderr).toContain('INVALID_API_KEY');
    const readOnly = await a.keyWith(['import:read']);
    const scoped = await importCli(['catalog', csv, '--key', readOnly]);
    expect(scoped.code).toBe(1);
    expect(scoped.stderr).toContain('INSUFFICIENT_SCOPE');
    expect(await product('CLI-NO')).toBeUndefined();
  }, SLOW);

  it('exits 2 for bad arguments', async () => {
    const csv = await file('ok.csv', 'externalId\nCLI-X\n');
    const broken = await file('broken.csv', 'externalId,name\nCLI-Y,"unterminated\n');
    const cases: [string[], RegExp][] = [
      [[], /Give the kind of rows and the file/],
      [['widgets', csv], /Unknown kind "widgets"/],
      [['catalog', path.join(dir, 'missing.csv')], /Cannot read/],
      [['catalog', csv, '--batch', '0'], /--batch must be a positive whole number/],
      [['catalog', csv, '--bogus'], /Unknown option '--bogus'/],
      [['catalog', broken], /line 2: unterminated quoted field/],
    ];
    const runs = await Promise.all(cases.map(([args]) => importCli(args)));
    runs.forEach((run, i) => {
      expect(run.code, cases[i]![0].join(' ')).toBe(2);
      expect(run.stderr).toMatch(cases[i]![1]);
      expect(run.stderr).toContain('Usage: npm run import');
    });
    const noKey = await importCli(['catalog', csv], { SCM_API_KEY: '' });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/Give an API key/);
    expect(await product('CLI-X')).toBeUndefined();
    expect(await product('CLI-Y')).toBeUndefined();
  }, SLOW);
});
