import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { loadSchemaEngine } from './schema-engine.js';

const here = path.dirname(fileURLToPath(import.meta.url));

// Works from src/db (tsx) and dist/src/db (compiled): walk up to the folder that holds prisma/.
export function projectRoot(): string {
  let dir = here;
  while (!existsSync(path.join(dir, 'prisma', 'schema.prisma'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('prisma/schema.prisma not found above ' + here);
    dir = parent;
  }
  return dir;
}

export const migrationsDir = () => path.join(projectRoot(), 'prisma', 'migrations');
export const schemaPath = () => path.join(projectRoot(), 'prisma', 'schema.prisma');

const filters = { externalTables: [], externalEnums: [] };

export async function readMigrationList(): Promise<MigrationList> {
  const baseDir = migrationsDir();
  const lockPath = path.join(baseDir, 'migration_lock.toml');
  const entries = existsSync(baseDir) ? await readdir(baseDir, { withFileTypes: true }) : [];
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockPath) ? await readFile(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      dirs.map(async (dir) => ({
        path: dir,
        migrationFile: {
          path: 'migration.sql',
          content: { tag: 'ok' as const, value: await readFile(path.join(baseDir, dir, 'migration.sql'), 'utf8') },
        },
      })),
    ),
  };
}

async function withEngine<T>(factory: SqlMigrationAwareDriverAdapterFactory, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const Engine = await loadSchemaEngine();
  const datamodel = await readFile(schemaPath(), 'utf8');
  const engine = await Engine.new({ datamodels: [[schemaPath(), datamodel]] }, () => {}, bindMigrationAwareSqlAdapterFactory(factory));
  try {
    return await fn(engine);
  } finally {
    engine.free();
  }
}

/** Applies every migration in prisma/migrations that the database has not seen yet. */
export async function applyPendingMigrations(factory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const migrationsList = await readMigrationList();
  const result = await withEngine(factory, (engine) => engine.applyMigrations({ migrationsList, filters }));
  return result.appliedMigrationNames;
}

/** SQL that takes a database built from the migrations to the datamodel in schema.prisma ('' when they agree). */
export async function diffMigrationsToSchema(factory: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  const migrationsList = await readMigrationList();
  const datamodel = await readFile(schemaPath(), 'utf8');
  const from = migrationsList.migrationDirectories.length ? { tag: 'migrations' as const, ...migrationsList } : { tag: 'empty' as const };
  const result = await withEngine(factory, (engine) =>
    engine.diff({
      from,
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath(), content: datamodel }] },
      script: true,
      exitCode: null,
      filters,
    }),
  );
  const sql = result.stdout ?? '';
  return /^\s*(--.*\n?\s*)*$/.test(sql) || sql.includes('This is an empty migration') ? '' : sql;
}
