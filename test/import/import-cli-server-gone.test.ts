import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseForProcesses, ROOT, runEntry, startServerProcess, type ProcessRun, type ServerProcess } from '../support/processes.js';

// The loader talks to a real server process that stops (as Ctrl-C or a deploy stops it) while a file is
// being imported: the loader must say which job to check and how to resume, and the resume it prints
// must complete the file once the server is back.

const ROWS = 6_000;
const database = databaseForProcesses();
let server: ServerProcess | undefined;
let dir: string;
let key: string;

beforeAll(async () => {
  const admin = async (...args: string[]) => {
    const run = await runEntry('src/cli/admin.ts', args, database.env());
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as Record<string, string>;
  };
  const { organizationId } = await admin('create-org', '--name', 'Loader Org');
  key = (await admin('create-api-key', '--org', organizationId!, '--name', 'loader', '--scopes', 'import:write,inventory:read')).key!;
  dir = await mkdtemp(path.join(os.tmpdir(), 'scm-import-gone-'));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const serverEnv = () => ({ ...database.env(), IMPORT_WORKERS: '1', IMPORT_POLL_MS: '100' });

/** The loader as its own process; resolves when it exits, calling `onJob` once it has printed a job line. */
function loader(args: string[], onJob?: () => void): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/import.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, SCM_URL: server!.baseUrl, SCM_API_KEY: key },
    });
    let stdout = '';
    let stderr = '';
    let told = false;
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (!told && onJob && /^job [0-9a-f-]{36}: rows/m.test(stderr)) {
        told = true;
        onJob();
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function productCount(): Promise<number> {
  const res = await fetch(`${server!.baseUrl}/api/products?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { meta: { total: number } }).meta.total;
}

describe('npm run import when the server goes away', () => {
  it('names the job to check and the --skip that resumes, and that resume completes the file', async () => {
    const csv = path.join(dir, 'catalog.csv');
    await writeFile(csv, ['externalId,name,unitCost', ...Array.from({ length: ROWS }, (_, i) => `GONE-${String(i).padStart(5, '0')},Gone ${i},1.5`)].join('\n'));
    server = await startServerProcess(serverEnv());
    // The server stops as soon as the first batch is accepted: the loader is then polling that job, or
    // already sending the next batch.
    let stopping: Promise<void> | undefined;
    const run = await loader(['catalog', csv, '--batch', '2000'], () => (stopping = server!.stop()));
    await stopping;
    server = undefined;

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/The server went away (while job [0-9a-f-]{36} was applying|while receiving) rows \d+–\d+/);
    const resume = run.stderr.match(/npm run import -- catalog \S+ --batch 2000 --skip (\d+)$/m);
    expect(resume, run.stderr).not.toBeNull();
    expect(run.stderr).not.toContain(key);
    const skip = Number(resume![1]);
    const pending = run.stderr.match(/The server resumes job ([0-9a-f-]{36}) when it starts again/)?.[1];

    server = await startServerProcess(serverEnv());
    if (pending) {
      // The job the loader named finishes on its own once the server is back.
      const status = run.stderr.match(/curl -H "authorization: Bearer \$SCM_API_KEY" (\S+)/)![1]!;
      expect(status).toMatch(new RegExp(`/api/import/status/${pending}$`));
      let state = '';
      for (let i = 0; i < 600 && state !== 'COMPLETED'; i++) {
        const res = await fetch(`${server.baseUrl}/api/import/status/${pending}`, { headers: { authorization: `Bearer ${key}` } });
        state = ((await res.json()) as { state: string }).state;
        if (state !== 'COMPLETED') await new Promise((r) => setTimeout(r, 100));
      }
      expect(state).toBe('COMPLETED');
    }
    const rest = await loader(['catalog', csv, '--batch', '2000', '--skip', String(skip)]);
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stdout).toContain(`rows:      ${ROWS} (the first ${skip} skipped)`);
    expect(await productCount()).toBe(ROWS);
  }, 240_000);

  it('refuses a --skip past the end of the file', async () => {
    const csv = path.join(dir, 'small.csv');
    await writeFile(csv, 'externalId,name\nS-1,One\n');
    const run = await runEntry('src/cli/import.ts', ['catalog', csv, '--skip', '5'], { SCM_API_KEY: 'unused' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--skip 5 leaves nothing to send: the file has 1 rows/);
  }, 60_000);
});
