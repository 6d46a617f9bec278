import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEntry, startServerProcess, type ServerProcess } from '../support/processes.js';

// The embedded database is single-user: with `npm start` on a folder, an admin command or a second server
// on the same folder must refuse at once, in one line, instead of writing to a copy that is then lost.
// Real processes on a PGlite folder of this file's own, whatever database the suite runs on.

let dataDir: string;
let server: ServerProcess | undefined;
const env = () => ({ DATABASE_URL: '', DATA_DIR: dataDir });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'scm-owner-'));
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('one process per embedded database folder', () => {
  it('refuses an admin command and a second server while a server holds the folder, and frees it when the server stops', async () => {
    server = await startServerProcess(env());
    const admin = await runEntry('src/cli/admin.ts', ['create-org', '--name', 'Lost Org'], env());
    expect(admin.code).toBe(1);
    expect(admin.stdout).toBe('');
    const lines = admin.stderr.trim().split('\n').filter((l) => l.startsWith('error'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/database folder .* is in use by process \d+ .*Stop that process first/);

    const second = await runEntry('src/main.ts', [], { ...env(), PORT: '0', HOST: '127.0.0.1', SEED_DEMO: 'false', JWT_SECRET: 'process-test-secret-long-enough-0000000' });
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: the database folder .* is in use by process \d+/)]);

    await server.stop();
    server = undefined;
    const created = await runEntry('src/cli/admin.ts', ['create-org', '--name', 'Kept Org'], env());
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({ organizationId: expect.any(String) });
  }, 180_000);

  it('takes over a lock left by a process that died', async () => {
    // A pid no process has (above the kernel's maximum).
    await writeFile(path.join(dataDir, 'scm-owner.json'), JSON.stringify({ pid: 2 ** 22 + 1, command: 'src/main.ts', since: '2026-01-01T00:00:00.000Z' }));
    const run = await runEntry('src/cli/admin.ts', ['create-org', '--name', 'After Crash'], env());
    expect(run.code).toBe(0);
    await expect(readFile(path.join(dataDir, 'scm-owner.json'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  }, 60_000);
});
