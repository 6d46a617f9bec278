// Demo data for a first start against an empty database, so the service can be tried right away.
import { randomBytes } from 'node:crypto';
import { type App, operatorContext, systemContext } from '../../context.js';
import { type Db, inTransaction, joinTransaction } from '../../db/transactions.js';
import { createApiKey, createChannelFor, createLocationFor, createOrganization, createUser } from './admin.js';
import { seedDemoContents } from './demo-contents.js';

export interface DemoCredentials {
  organizationId: string;
  organizationName: string;
  email: string;
  /** What the organization holds: products, the scenario whose forecast run the workers compute, recommendations. */
  contents: { products: number; scenarioId: string; recommendations: number };
  password: string;
  apiKey: string;
}

export const DEMO_ORGANIZATION = 'Demo Organization';
export const DEMO_ADMIN_EMAIL = 'admin@demo.local';

// Any fixed 64-bit number; every instance must use the same one so that they serialize on it.
const SEED_LOCK_KEY = 7_305_441_902_117;

const LOCATIONS = [
  { key: 'dcEast', code: 'DC-EAST', name: 'East Distribution Center', type: 'WAREHOUSE' },
  { key: 'dcWest', code: 'DC-WEST', name: 'West Distribution Center', type: 'WAREHOUSE' },
  { key: 'store1', code: 'STORE-001', name: 'Downtown Store', type: 'STORE' },
  { key: 'store2', code: 'STORE-002', name: 'Harbour Store', type: 'STORE' },
] as const;

const CHANNELS = [
  { name: 'Online', type: 'ECOMMERCE' },
  { name: 'Retail', type: 'RETAIL' },
  { name: 'Wholesale', type: 'WHOLESALE' },
];

/**
 * Seeds the demo organization when the database holds no organizations and no users, logs the
 * credentials and returns them (they are shown once: only hashes are stored). Returns null when there
 * was something already.
 * Instances starting together serialize on an advisory lock and re-check inside it, so only one seeds.
 */
export async function seedDemoIfEmpty(app: App, log: (message: string) => void = () => {}): Promise<DemoCredentials | null> {
  const ctx = operatorContext(app.prisma, 'demo-seed');
  if (!(await isEmpty(ctx.prisma))) return null;
  const password = randomBytes(12).toString('base64url');
  const started = performance.now();
  // One transaction: a start that dies half-way leaves an empty database, seeded again by the next start.
  const seeded = await inTransaction(
    ctx,
    async (txCtx) => {
      const tx = txCtx.prisma;
      await tx.$queryRawUnsafe(`SELECT 1 AS locked FROM pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
      if (!(await isEmpty(tx))) return null;
      const org = await createOrganization(txCtx, { name: DEMO_ORGANIZATION, capabilities: ['ai.forecasting.demand'], industry: 'RETAIL' });
      const organizationId = org.id;
      await createUser(txCtx, { organizationId, email: DEMO_ADMIN_EMAIL, password, role: 'ADMIN', name: 'Demo Admin' });
      const locations = {} as Record<(typeof LOCATIONS)[number]['key'], { id: string; code: string }>;
      for (const { key, ...location } of LOCATIONS) locations[key] = await createLocationFor(txCtx, { organizationId, ...location });
      const channels: string[] = [];
      for (const channel of CHANNELS) channels.push((await createChannelFor(txCtx, { organizationId, ...channel })).id);
      const { key, apiKey: record } = await createApiKey(txCtx, { organizationId, name: 'Demo key', scopes: ['*'] });
      // The contents are written as the demo key, through the services, in this same transaction.
      const as = joinTransaction(systemContext(app, { organization: org, actor: { type: 'apiKey', id: record.id, scopes: ['*'] }, origin: 'demo-seed' }), tx);
      const contents = await seedDemoContents(as, locations, { online: channels[0]! });
      return { organizationId, organizationName: org.name, email: DEMO_ADMIN_EMAIL, password, apiKey: key, contents };
    },
    // Waiting for another instance's seed counts against the timeout; on PGlite (one connection) the wait for
    // the transaction itself is the other instance's whole seed, which takes over 10 s on a busy machine.
    { timeout: 120_000, maxWait: 120_000 },
  );
  if (seeded) log(formatDemoCredentials(seeded, Math.round(performance.now() - started), app.config.port || 4000));
  return seeded;
}

async function isEmpty(db: Pick<Db, 'organization' | 'user'>): Promise<boolean> {
  const [organizations, users] = await Promise.all([db.organization.count(), db.user.count()]);
  return organizations === 0 && users === 0;
}

function formatDemoCredentials(demo: DemoCredentials, ms: number, port: number): string {
  return [
    '',
    `=== Demo data seeded in ${(ms / 1000).toFixed(1)} s (shown only once; set SEED_DEMO=false to skip seeding) ===`,
    `  Organization:       ${demo.organizationName} (${demo.organizationId})`,
    `  Admin e-mail:       ${demo.email}`,
    `  Admin password:     ${demo.password}`,
    `  API key (scope *):  ${demo.apiKey}`,
    `  Holds: ${demo.contents.products} products at 4 locations with stock, lots and levels, two years of weekly demand,`,
    `  a published scenario whose forecast run is computed in the background, ${demo.contents.recommendations} pending transfer recommendations,`,
    '  alert rules for expiring lots and stock below minimum (GET /api/alerts after the first sweep).',
    '  Try first:',
    `    export KEY=${demo.apiKey}`,
    `    curl -s "localhost:${port}/api/inventory?limit=5" -H "Authorization: Bearer $KEY"`,
    `    curl -s "localhost:${port}/api/products?search=coffee&limit=3" -H "Authorization: Bearer $KEY"`,
    `    curl -s "localhost:${port}/api/transfers/recommendations?status=PENDING&limit=5" -H "Authorization: Bearer $KEY"`,
    `  GraphiQL (localhost:${port}/graphql, with the header Authorization: Bearer <key>):`,
    '    { products(first: 5) { edges { node { sku name stock(first: 3) { edges { node { location { name } lot { code expiryDate } quantityAvailable } } } } } } }',
    '================================================================================',
    '',
  ].join('\n');
}
