// Operator CLI: `npm run admin -- <command> [options]`. Uses the server's DATA_DIR / DATABASE_URL,
// applies pending migrations, and prints exactly one JSON object on stdout; everything else goes to
// stderr so scripts can read the result with `tail -n 1`.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { type OperatorContext, operatorContext } from '../context.js';
import { DomainError, validationError } from '../kernel/errors.js';
import type { Role } from '../generated/prisma/enums.js';
import {
  createApiKey,
  createChannelFor,
  createLocationFor,
  createOrganization,
  createUser,
  revokeApiKeyById,
  setOrganizationSettings,
  setOrganizationStatus,
} from '../services/admin/admin.js';
import { rebuildRowCounts } from '../services/row-counts/rebuild-row-counts.js';

type Values = Record<string, string | undefined>;

interface Command {
  summary: string;
  /** Option name -> whether it is required. */
  options: Record<string, boolean>;
  /** Input field -> option name, to name the option in validation messages. */
  fields?: Record<string, string>;
  run(ctx: OperatorContext, values: Values): Promise<object>;
}

const list = (value: string | undefined) => (value === undefined ? undefined : value.split(',').map((s) => s.trim()).filter(Boolean));
// Required options are checked before run(), so `req` only narrows the type.
const req = (values: Values, name: string) => values[name] as string;

const COMMANDS: Record<string, Command> = {
  'create-org': {
    summary: 'create-org --name <name> [--capabilities ai.forecasting.demand,...] [--industry <e.g. HEALTHCARE>] [--min-shelf-life-days <days>]',
    options: { name: true, capabilities: false, industry: false, 'min-shelf-life-days': false },
    fields: { minShelfLifeDays: 'min-shelf-life-days' },
    async run(ctx, v) {
      const days = v['min-shelf-life-days'];
      const org = await createOrganization(ctx, {
        name: req(v, 'name'),
        capabilities: list(v.capabilities),
        industry: v.industry,
        minShelfLifeDays: days === undefined ? undefined : Number(days),
      });
      return { organizationId: org.id };
    },
  },
  'create-user': {
    summary: 'create-user --org <id> --email <email> --password <password> --role ADMIN|MANAGER|PLANNER|VIEWER [--name <name>]',
    options: { org: true, email: true, password: true, role: true, name: false },
    fields: { organizationId: 'org' },
    async run(ctx, v) {
      // An unknown role is rejected by createUser's validation, which names the field.
      const role = req(v, 'role').toUpperCase() as Role;
      const user = await createUser(ctx, { organizationId: req(v, 'org'), email: req(v, 'email'), password: req(v, 'password'), role, name: v.name });
      return { userId: user.id };
    },
  },
  'create-api-key': {
    summary: 'create-api-key --org <id> --name <name> --scopes <scope,...> [--allowed-ips <ip or cidr,...>] [--expires-at <ISO date-time, for example 2030-01-31T00:00:00Z>]',
    options: { org: true, name: true, scopes: true, 'allowed-ips': false, 'expires-at': false },
    fields: { organizationId: 'org', allowedIps: 'allowed-ips', expiresAt: 'expires-at' },
    async run(ctx, v) {
      const expiresAt = v['expires-at'];
      const { apiKey, key } = await createApiKey(ctx, {
        organizationId: req(v, 'org'),
        name: req(v, 'name'),
        scopes: list(v.scopes) ?? [],
        allowedIps: list(v['allowed-ips']),
        expiresAt,
      });
      return { id: apiKey.id, key };
    },
  },
  'create-location': {
    summary: 'create-location --org <id> --code <code> --name <name> [--type <type, default WAREHOUSE>]',
    options: { org: true, code: true, name: true, type: false },
    fields: { organizationId: 'org' },
    async run(ctx, v) {
      const location = await createLocationFor(ctx, { organizationId: req(v, 'org'), code: req(v, 'code'), name: req(v, 'name'), type: v.type });
      return { locationId: location.id };
    },
  },
  'create-channel': {
    summary: 'create-channel --org <id> --name <name> [--type <type, default OTHER>]',
    options: { org: true, name: true, type: false },
    fields: { organizationId: 'org' },
    async run(ctx, v) {
      const channel = await createChannelFor(ctx, { organizationId: req(v, 'org'), name: req(v, 'name'), type: v.type });
      return { channelId: channel.id };
    },
  },
  'set-org-status': {
    summary: 'set-org-status --org <id> --status ACTIVE|INACTIVE',
    options: { org: true, status: true },
    async run(ctx, v) {
      const status = req(v, 'status').toUpperCase();
      if (status !== 'ACTIVE' && status !== 'INACTIVE') throw validationError({ status: ['Must be ACTIVE or INACTIVE'] });
      await setOrganizationStatus(ctx, req(v, 'org'), status);
      return { organizationId: req(v, 'org'), status };
    },
  },
  'set-org-settings': {
    summary: 'set-org-settings --org <id> --min-shelf-life-days <days>',
    options: { org: true, 'min-shelf-life-days': true },
    fields: { organizationId: 'org', minShelfLifeDays: 'min-shelf-life-days' },
    async run(ctx, v) {
      const minShelfLifeDays = Number(req(v, 'min-shelf-life-days'));
      await setOrganizationSettings(ctx, { organizationId: req(v, 'org'), minShelfLifeDays });
      return { organizationId: req(v, 'org'), minShelfLifeDays };
    },
  },
  'rebuild-row-counts': {
    summary: 'rebuild-row-counts',
    options: {},
    run: (ctx) => rebuildRowCounts(ctx),
  },
  'revoke-api-key': {
    summary: 'revoke-api-key --id <api key id>',
    options: { id: true },
    async run(ctx, v) {
      await revokeApiKeyById(ctx, req(v, 'id'));
      return { id: req(v, 'id'), revoked: true };
    },
  },
};

function usage(): string {
  return [
    'Usage: npm run admin -- <command> [options]',
    '',
    'Commands:',
    ...Object.values(COMMANDS).map((c) => `  ${c.summary}`),
    '  help',
    '',
    'Uses DATA_DIR (embedded database folder, default ./.data) or DATABASE_URL like the server, and applies',
    'pending migrations first. The result is one JSON object on the last line of standard output; errors go',
    'to standard error with exit code 1 (rejected input) or 2 (bad command line).',
  ].join('\n');
}

class UsageError extends Error {
  constructor(message: string, readonly command?: Command) {
    super(message);
  }
}

function parse(argv: string[]): { name: string; command: Command; values: Values } | 'help' {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError('missing command');
  if (name === 'help' || name === '--help' || name === '-h') return 'help';
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`unknown command "${name}"`);
  let values: Values;
  try {
    const options = Object.fromEntries(Object.keys(command.options).map((o) => [o, { type: 'string' as const }]));
    values = parseArgs({ args: rest, options, strict: true, allowPositionals: false }).values as Values;
  } catch (error) {
    throw new UsageError(`${name}: ${(error as Error).message}`, command);
  }
  const missing = Object.entries(command.options).filter(([o, required]) => required && values[o] === undefined);
  if (missing.length) throw new UsageError(`${name}: missing ${missing.map(([o]) => `--${o}`).join(', ')}`, command);
  return { name, command, values };
}

function describeError(error: unknown, command: Command): string {
  if (!(error instanceof DomainError)) return (error as Error)?.message ?? String(error);
  const details = error.details;
  if (!details) return error.message;
  const lines = Object.entries(details).map(([field, messages]) => {
    const head = field.split('.')[0] ?? field;
    const option = command.fields?.[head] ?? head;
    return option === '_' ? `  ${messages.join('; ')}` : `  --${option}: ${messages.join('; ')}`;
  });
  return [error.message, ...lines].join('\n');
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n\n${error.command ? `usage: npm run admin -- ${error.command.summary}` : usage()}\n`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(usage() + '\n');
    return 0;
  }
  // Nothing but the result may reach stdout; route stray library logging to stderr.
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, directUrl: config.databaseDirectUrl, dataDir: config.dataDir, poolSize: 2, log: (m) => console.error(m) });
  } catch (error) {
    process.stderr.write(`error: cannot open the database: ${(error as Error)?.message ?? String(error)}\n`);
    return 1;
  }
  try {
    const result = await parsed.command.run(operatorContext(database.prisma, 'admin-cli'), parsed.values);
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${parsed.name}: ${describeError(error, parsed.command)}\n`);
    return 1;
  } finally {
    // PGlite keeps the process alive until it is closed.
    await database.close();
  }
}

// The migration engine leaves a 10 s timer behind, so exit explicitly once the output is flushed.
function exit(code: number) {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2)).then(exit, (error) => {
  process.stderr.write(`error: ${(error as Error)?.stack ?? String(error)}\n`);
  exit(1);
});
