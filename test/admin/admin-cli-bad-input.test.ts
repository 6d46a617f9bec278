import { describe, expect, it } from 'vitest';
import { databaseForProcesses, runEntry } from '../support/processes.js';

// The admin CLI and the server entry refusing bad input: real processes, so the runs are few.
const SLOW = 180_000;
const database = databaseForProcesses();
const run = (file: string, args: string[], env: Record<string, string>) => runEntry(file, args, { PORT: '0', ...env });

const cli = (...args: string[]) => run('src/cli/admin.ts', args, database.env());

describe('admin CLI input', () => {
  it(
    'create-user for an existing email: the right password adds the user to another organization, a different one is refused',
    async () => {
      const orgA = JSON.parse((await cli('create-org', '--name', 'A')).stdout.trim().split('\n').at(-1)!).organizationId;
      const orgB = JSON.parse((await cli('create-org', '--name', 'B')).stdout.trim().split('\n').at(-1)!).organizationId;
      const first = await cli('create-user', '--org', orgA, '--email', 'ops@twice.test', '--password', 'first password', '--role', 'ADMIN');
      expect(first.code).toBe(0);

      const other = await cli('create-user', '--org', orgB, '--email', 'OPS@twice.test', '--password', 'another password', '--role', 'VIEWER');
      expect(other.code).toBe(1);
      expect(other.stdout).toBe('');
      expect(other.stderr).toContain('A user with this email already exists');
      expect(other.stderr).toContain('--password: A user with this email already exists and this is not their password; the CLI does not change passwords');

      const same = await cli('create-user', '--org', orgB, '--email', 'ops@twice.test', '--password', 'first password', '--role', 'VIEWER');
      expect(same.code).toBe(0);
      expect(JSON.parse(same.stdout.trim()).userId).toBe(JSON.parse(first.stdout.trim()).userId);

      const past = await cli('create-api-key', '--org', orgA, '--name', 'late', '--scopes', '*', '--expires-at', '2001-01-01T00:00:00Z');
      expect(past.code).toBe(1);
      expect(past.stderr).toContain('--expires-at: Must be in the future');
      const far = await cli('create-api-key', '--org', orgA, '--name', 'far', '--scopes', '*', '--expires-at', '2201-01-01T00:00:00Z');
      expect(far.code).toBe(1);
      expect(far.stderr).toContain('--expires-at: The year must be from 1970 to 2200');
    },
    SLOW,
  );
});

describe('a malformed DATABASE_URL', () => {
  const bad = ['postgres://user:s3cret-pass@db:notaport/scm', 'not a url', 'mysql://user:s3cret-pass@db/scm', 'postgresql:///scm'];
  for (const [file, args] of [['src/cli/admin.ts', ['create-org', '--name', 'x']], ['src/main.ts', []]] as const) {
    it(
      `${file}: one line naming DATABASE_URL, no stack trace, no password, exit code 1`,
      async () => {
        for (const url of bad) {
          const result = await run(file, [...args], { DATABASE_URL: url, DATA_DIR: '/nonexistent-never-created' });
          expect(result.code, url).toBe(1);
          const lines = result.stderr.trim().split('\n').filter((line) => !line.startsWith('npm warn'));
          expect(lines, url).toHaveLength(1);
          expect(lines[0]).toMatch(/^error: DATABASE_URL /);
          expect(result.stderr).not.toContain('s3cret-pass');
          expect(result.stderr).not.toMatch(/^\s+at /m);
          expect(result.stdout).toBe('');
        }
      },
      SLOW,
    );
  }
});
