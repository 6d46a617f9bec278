// Demo data for a first start against an empty database, so the service can be tried right away.
import { randomBytes } from 'node:crypto';
import type { OperatorContext } from '../../context.js';
import { type Db, inTransaction } from '../../db/transactions.js';
import { categoryCreate } from '../../contracts/master-data/reference-inputs.js';
import { categories } from '../master-data/categories.js';
import { parseInput } from '../tenant.js';
import { createApiKey, createChannelFor, createLocationFor, createOrganization, createUser } from './admin.js';

export interface DemoCredentials {
  organizationId: string;
  organizationName: string;
  email: string;
  password: string;
  apiKey: string;
}

export const DEMO_ORGANIZATION = 'Demo Organization';
export const DEMO_ADMIN_EMAIL = 'admin@demo.local';

// Any fixed 64-bit number; every instance must use the same one so that they serialize on it.
const SEED_LOCK_KEY = 7_305_441_902_117;

const LOCATIONS = [
  { code: 'DC-EAST', name: 'East Distribution Center', type: 'WAREHOUSE' },
  { code: 'DC-WEST', name: 'West Distribution Center', type: 'WAREHOUSE' },
  { code: 'STORE-001', name: 'Downtown Store', type: 'STORE' },
];

const CHANNELS = [
  { name: 'Online', type: 'ECOMMERCE' },
  { name: 'Retail', type: 'RETAIL' },
  { name: 'Wholesale', type: 'WHOLESALE' },
];

const PRODUCTS: Record<string, { sku: string; name: string; description: string; unitCost: number }[]> = {
  Electronics: [
    { sku: 'ELEC-001', name: 'Wireless Mouse', description: 'Ergonomic 2.4 GHz wireless mouse', unitCost: 8.5 },
    { sku: 'ELEC-002', name: 'USB-C Charger 65W', description: 'Fast wall charger with one USB-C port', unitCost: 14.2 },
    { sku: 'ELEC-003', name: 'Bluetooth Headphones', description: 'Over-ear headphones with noise cancelling', unitCost: 42 },
    { sku: 'ELEC-004', name: 'HDMI Cable 2m', description: 'High-speed HDMI 2.1 cable, 2 metres', unitCost: 3.1 },
  ],
  'Home & Kitchen': [
    { sku: 'HOME-001', name: 'Stainless Steel Kettle', description: '1.7 litre electric kettle', unitCost: 18.75 },
    { sku: 'HOME-002', name: 'Chef Knife 8"', description: 'Forged stainless steel chef knife', unitCost: 12.4 },
    { sku: 'HOME-003', name: 'Glass Storage Set', description: 'Set of 5 glass containers with lids', unitCost: 9.9 },
    { sku: 'HOME-004', name: 'Cotton Bath Towel', description: 'Large 600 gsm cotton bath towel', unitCost: 6.3 },
  ],
  Grocery: [
    { sku: 'GROC-001', name: 'Arabica Coffee Beans 1kg', description: 'Medium roast whole beans', unitCost: 11.6 },
    { sku: 'GROC-002', name: 'Green Tea 100 bags', description: 'Japanese sencha tea bags', unitCost: 4.2 },
    { sku: 'GROC-003', name: 'Extra Virgin Olive Oil 1L', description: 'Cold-pressed olive oil', unitCost: 7.8 },
    { sku: 'GROC-004', name: 'Organic Rolled Oats 1kg', description: 'Whole grain rolled oats', unitCost: 2.45 },
  ],
};

/**
 * Seeds the demo organization when the database holds no organizations and no users, logs the
 * credentials and returns them (they are shown once: only hashes are stored). Returns null when there
 * was something already.
 * Instances starting together serialize on an advisory lock and re-check inside it, so only one seeds.
 */
export async function seedDemoIfEmpty(ctx: OperatorContext, log: (message: string) => void = () => {}): Promise<DemoCredentials | null> {
  if (!(await isEmpty(ctx.prisma))) return null;
  const password = randomBytes(12).toString('base64url');
  const seeded = await inTransaction(
    ctx,
    async (txCtx) => {
      const tx = txCtx.prisma;
      await tx.$queryRawUnsafe(`SELECT 1 AS locked FROM pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
      if (!(await isEmpty(tx))) return null;
      const org = await createOrganization(txCtx, { name: DEMO_ORGANIZATION, capabilities: ['ai.forecasting.demand'], industry: 'RETAIL' });
      const organizationId = org.id;
      await createUser(txCtx, { organizationId, email: DEMO_ADMIN_EMAIL, password, role: 'ADMIN', name: 'Demo Admin' });
      for (const location of LOCATIONS) await createLocationFor(txCtx, { organizationId, ...location });
      for (const channel of CHANNELS) await createChannelFor(txCtx, { organizationId, ...channel });
      for (const [categoryName, products] of Object.entries(PRODUCTS)) {
        const category = await categories.insert(txCtx, organizationId, parseInput(categoryCreate, { name: categoryName }));
        await tx.productMaster.createMany({ data: products.map((p) => ({ ...p, organizationId, categoryId: category.id })) });
      }
      const { key } = await createApiKey(txCtx, { organizationId, name: 'Demo key', scopes: ['*'] });
      return { organizationId, organizationName: org.name, email: DEMO_ADMIN_EMAIL, password, apiKey: key };
    },
    // Waiting for another instance's seed counts against the timeout.
    { timeout: 60_000, maxWait: 10_000 },
  );
  if (seeded) log(formatDemoCredentials(seeded));
  return seeded;
}

async function isEmpty(db: Pick<Db, 'organization' | 'user'>): Promise<boolean> {
  const [organizations, users] = await Promise.all([db.organization.count(), db.user.count()]);
  return organizations === 0 && users === 0;
}

function formatDemoCredentials(demo: DemoCredentials): string {
  return [
    '',
    '=== Demo data seeded (shown only once; set SEED_DEMO=false to skip seeding) ===',
    `  Organization:       ${demo.organizationName} (${demo.organizationId})`,
    `  Admin e-mail:       ${demo.email}`,
    `  Admin password:     ${demo.password}`,
    `  API key (scope *):  ${demo.apiKey}`,
    '================================================================================',
    '',
  ].join('\n');
}
