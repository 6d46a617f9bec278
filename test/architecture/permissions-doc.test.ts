import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { permissionTables } from '../../scripts/permissions-table.js';

describe('docs/authentication.md', () => {
  it('shows the permission tables as the code defines them (npm run docs:permissions)', () => {
    const readme = readFileSync(new URL('../../docs/authentication.md', import.meta.url), 'utf8');
    const block = readme.split('<!-- permissions:start')[1]?.split('-->').slice(1).join('-->').split('<!-- permissions:end')[0];
    expect(block?.trim()).toBe(permissionTables());
  });
});
