// Prints the scope and role tables of docs/authentication.md from src/auth/permissions.ts.
// test/architecture/permissions-doc.test.ts fails when that copy differs: run `npm run docs:permissions` and paste.
import { PERMISSIONS, ROLE_PERMISSIONS, SCOPE_PERMISSIONS } from '../src/auth/permissions.js';

const list = (perms: readonly string[]) => (perms.length === PERMISSIONS.length ? 'all' : perms.length ? [...perms].sort().map((p) => `\`${p}\``).join(', ') : '—');

export function permissionTables(): string {
  const scopes = Object.entries(SCOPE_PERMISSIONS).map(([scope, perms]) =>
    `| \`${scope}\` | ${scope === '*' ? 'all except `apikeys.manage`' : list(perms)} |`,
  );
  const roles = Object.entries(ROLE_PERMISSIONS).map(([role, perms]) => `| ${role} | ${list(perms)} |`);
  return [
    '| API-key scope | permissions granted |',
    '|---|---|',
    ...scopes,
    '',
    '| Role | permissions granted |',
    '|---|---|',
    ...roles,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(permissionTables());
