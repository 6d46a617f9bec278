import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { setRootLogger } from '../../src/kernel/log.js';
import { SecretKey } from '../../src/kernel/secret-keys.js';
import { openWebhookSecret, sealWebhookSecret } from '../../src/services/webhooks/webhook-secret-store.js';
import { createProduct } from '../support/api.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { root, sourceFiles } from '../architecture/source-files.js';
import { runEntry } from '../support/processes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { addStock } from '../support/stock.js';
import { startReceiver, verifySignature } from './webhook-receiver.js';

// Webhook signing secrets sealed at rest with SECRETS_ENCRYPTION_KEY (docs/webhooks.md#the-secret-at-rest). One
// database for the file; servers are started on it one after the other with other keys, as restarts with other
// settings would be: no key (secrets in clear), a key (clear ones sealed at start; new ones sealed; deliveries
// verify with the secret shown at create and rotate), a new key with the old one as previous (re-sealed at start,
// values of the old key still open), a key that opens nothing (deliveries fail with the reason, the worker goes
// on), and bad key values (a start-up error naming the variable). On both databases.
const KEY_1 = randomBytes(32).toString('base64');
const KEY_2 = randomBytes(32).toString('hex');
const KEY_3 = randomBytes(32).toString('base64url');
const id1 = new SecretKey(Buffer.from(KEY_1, 'base64')).id;
const id2 = new SecretKey(Buffer.from(KEY_2, 'hex')).id;

let db: TestDatabase;
let server: TestServer | undefined;
let a: Tenant;
let b: Tenant;
let productA: string;
let productB: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const warnings: string[] = [];

beforeAll(async () => {
  // Warnings of the root logger (silent in tests otherwise) are what the operator would read at start.
  setRootLogger(pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) }));
  receiver = await startReceiver();
  db = await createTestDatabase();
  a = await createTenant(db.prisma);
  b = await createTenant(db.prisma);
});
afterAll(async () => {
  await server?.close();
  await db?.close();
  await receiver?.close();
  setRootLogger(pino({ level: 'silent' }));
});

/** (Re)starts the server on the file's database with these keys (none: unset). */
async function restart(keys: { SECRETS_ENCRYPTION_KEY?: string; SECRETS_ENCRYPTION_KEY_PREVIOUS?: string } = {}) {
  await server?.close();
  server = undefined;
  warnings.length = 0;
  server = await startTestServer(
    { WEBHOOK_POLL_MS: '20', WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_RETRY_MAX_MS: '100', WEBHOOK_MAX_ATTEMPTS: '1000', WEBHOOK_DISABLE_AFTER: '2', ...keys },
    { database: db },
  );
  return server;
}

const rowSecret = async (id: string) => (await db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: { secret: true } })).secret;

async function createEndpoint(tenant: Tenant, path: string) {
  const res = await server!.call('POST', '/api/webhooks/endpoints', { token: tenant.key, body: { url: receiver.url(path), eventTypes: ['stock.changed'] } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string };
}

let lots = 0;
/** A stock change of the tenant, and the request its endpoint at `path` got for it (signature verified by the caller). */
async function deliveredTo(tenant: Tenant, path: string) {
  const line = await addStock(server!.app, tenant.org.id, { productMasterId: tenant === a ? productA : productB, locationId: tenant.warehouse.id, lotCode: `L${lots++}` }, { ON_HAND: 1 });
  const got = await receiver.until((all) => all.some((r) => r.path === path && r.json.data?.stockLineId === line.id));
  return got.find((r) => r.path === path && r.json.data?.stockLineId === line.id)!;
}

async function attemptsOf(tenant: Tenant, endpointId: string, until: (attempts: { error: string | null }[]) => boolean) {
  for (;;) {
    const res = await server!.call('GET', `/api/webhooks/endpoints/${endpointId}/deliveries`, { token: tenant.key });
    const attempts = (res.body.data as { attempts: { error: string | null }[] }[]).flatMap((d) => d.attempts);
    if (until(attempts)) return attempts;
    await new Promise((r) => setTimeout(r, 25));
  }
}

let clear: { id: string; secret: string };
let sealed: { id: string; secret: string };

describe('webhook secrets at rest', { timeout: 90_000 }, () => {
  it('without a key: secrets are stored as issued; a warning at start on PostgreSQL only', async () => {
    await restart();
    productA = await createProduct(server!, a.key, 'SEAL-A');
    productB = await createProduct(server!, b.key, 'SEAL-B');
    const warned = warnings.some((w) => w.includes('SECRETS_ENCRYPTION_KEY is not set'));
    expect(warned).toBe(server!.database.kind === 'postgres');
    clear = await createEndpoint(a, '/clear');
    expect(await rowSecret(clear.id)).toBe(clear.secret);
    const request = await deliveredTo(a, '/clear');
    expect(verifySignature(clear.secret, request.signature, request.body)).toBe(true);
  });

  it('with a key: clear secrets are sealed at start, new ones sealed; no clear secret in the row; deliveries verify after create and rotate', async () => {
    await restart({ SECRETS_ENCRYPTION_KEY: KEY_1 });
    expect(warnings).toEqual([]);
    // The secret made without a key was sealed at start, and still signs.
    const resealed = await rowSecret(clear.id);
    expect(resealed).toMatch(new RegExp(`^enc:v1:${id1}:[A-Za-z0-9_-]+$`));
    expect(resealed).not.toContain(clear.secret.slice('whsec_'.length));
    expect(verifySignature(clear.secret, ...(await deliveredTo(a, '/clear').then((r) => [r.signature, r.body] as const)))).toBe(true);

    sealed = await createEndpoint(a, '/sealed');
    const stored = await rowSecret(sealed.id);
    expect(stored).toMatch(new RegExp(`^enc:v1:${id1}:`));
    expect(stored).not.toContain(sealed.secret);
    expect(stored).not.toContain(sealed.secret.slice('whsec_'.length));
    const first = await deliveredTo(a, '/sealed');
    expect(verifySignature(sealed.secret, first.signature, first.body)).toBe(true);

    const rotated = await server!.call('POST', `/api/webhooks/endpoints/${sealed.id}/rotate-secret`, { token: a.key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const storedAfter = await rowSecret(sealed.id);
    expect(storedAfter).toMatch(new RegExp(`^enc:v1:${id1}:`));
    expect(storedAfter).not.toBe(stored);
    expect(storedAfter).not.toContain(rotated.body.secret.slice('whsec_'.length));
    const second = await deliveredTo(a, '/sealed');
    expect(verifySignature(rotated.body.secret, second.signature, second.body)).toBe(true);
    expect(verifySignature(sealed.secret, second.signature, second.body)).toBe(false);
    sealed = { id: sealed.id, secret: rotated.body.secret };

    // The answers that are not create or rotate say nothing of the secret, sealed or not.
    for (const path of [`/api/webhooks/endpoints/${sealed.id}`, '/api/webhooks/endpoints']) {
      const text = JSON.stringify((await server!.call('GET', path, { token: a.key })).body);
      expect(text).not.toContain('whsec_');
      expect(text).not.toContain('enc:v1');
    }
  });

  it('a sealed secret moved onto another endpoint (of another organization) does not open: its deliveries fail with the reason, the others go on', async () => {
    const other = await createEndpoint(b, '/moved');
    await db.prisma.webhookEndpoint.update({ where: { id: other.id }, data: { secret: await rowSecret(sealed.id) } });
    // Within one organization too: the endpoint id is bound.
    const sibling = await createEndpoint(a, '/sibling');
    await db.prisma.webhookEndpoint.update({ where: { id: sibling.id }, data: { secret: await rowSecret(sealed.id) } });
    const ok = await deliveredTo(a, '/sealed');
    expect(verifySignature(sealed.secret, ok.signature, ok.body)).toBe(true);
    await addStock(server!.app, b.org.id, { productMasterId: productB, locationId: b.warehouse.id, lotCode: `L${lots++}` }, { ON_HAND: 1 });
    for (const [tenant, endpoint] of [[b, other], [a, sibling]] as const) {
      // More failed attempts than WEBHOOK_DISABLE_AFTER (2): not the receiver's failure, so the endpoint stays active.
      const attempts = await attemptsOf(tenant, endpoint.id, (list) => list.length >= 3);
      expect(attempts[0]!.error).toContain(`does not open with encryption key ${id1}`);
      const detail = await server!.call('GET', `/api/webhooks/endpoints/${endpoint.id}`, { token: tenant.key });
      expect(detail.body).toMatchObject({ active: true, disabledAt: null });
      expect(JSON.stringify(detail.body)).not.toContain('enc:v1');
    }
    expect(receiver.received.some((r) => r.path === '/moved' || r.path === '/sibling')).toBe(false);
    for (const [tenant, endpoint] of [[b, other], [a, sibling]] as const) await server!.call('DELETE', `/api/webhooks/endpoints/${endpoint.id}`, { token: tenant.key });
  });

  it('key rotation: a new key with the old one as previous re-seals at start, and a value of the old key still opens', async () => {
    const underKey1 = await rowSecret(sealed.id);
    await restart({ SECRETS_ENCRYPTION_KEY: KEY_2, SECRETS_ENCRYPTION_KEY_PREVIOUS: KEY_1 });
    expect(warnings).toEqual([]);
    for (const endpoint of [clear, sealed]) expect(await rowSecret(endpoint.id)).toMatch(new RegExp(`^enc:v1:${id2}:`));
    const request = await deliveredTo(a, '/sealed');
    expect(verifySignature(sealed.secret, request.signature, request.body)).toBe(true);
    // A value sealed with the previous key (as an instance not yet restarted would still write) opens in the worker.
    await db.prisma.webhookEndpoint.update({ where: { id: sealed.id }, data: { secret: underKey1 } });
    const again = await deliveredTo(a, '/sealed');
    expect(verifySignature(sealed.secret, again.signature, again.body)).toBe(true);
    // ...and the worker re-sealed it with the current key on the way.
    expect(await rowSecret(sealed.id)).toMatch(new RegExp(`^enc:v1:${id2}:`));
    const keys = server!.app.config.secretsEncryption;
    expect(openWebhookSecret(keys, { id: sealed.id, organizationId: a.org.id }, underKey1)).toEqual({ ok: true, secret: sealed.secret, stale: true });
    expect(openWebhookSecret(keys, { id: sealed.id, organizationId: b.org.id }, underKey1)).toMatchObject({ ok: false });

    // The previous key dropped: everything was re-sealed with the current one, so everything still signs.
    await restart({ SECRETS_ENCRYPTION_KEY: KEY_2 });
    expect(warnings).toEqual([]);
    expect(await rowSecret(sealed.id)).toMatch(new RegExp(`^enc:v1:${id2}:`));
    for (const [endpoint, path] of [[clear, '/clear'], [sealed, '/sealed']] as const) {
      const got = await deliveredTo(a, path);
      expect(verifySignature(endpoint.secret, got.signature, got.body)).toBe(true);
    }
  });

  it('a key that opens nothing, or no key: a warning at start, deliveries fail with the reason, the endpoint says nothing secret', async () => {
    const sealedWith2 = await rowSecret(sealed.id);
    await restart({ SECRETS_ENCRYPTION_KEY: KEY_3 });
    expect(warnings.find((w) => w.startsWith('webhook secrets:'))).toContain(`2 with key ${id2} cannot be opened`);
    // Nothing was re-sealed (or lost) for want of the key.
    expect(await rowSecret(sealed.id)).toBe(sealedWith2);
    await addStock(server!.app, a.org.id, { productMasterId: productA, locationId: a.warehouse.id, lotCode: `L${lots++}` }, { ON_HAND: 1 });
    const attempts = await attemptsOf(a, sealed.id, (list) => list.some((t) => t.error?.includes('does not have')));
    expect(attempts.find((t) => t.error?.includes('does not have'))!.error).toContain(`sealed with encryption key ${id2}, which this instance does not have`);
    const detail = await server!.call('GET', `/api/webhooks/endpoints/${sealed.id}`, { token: a.key });
    expect(detail.status).toBe(200);
    expect(JSON.stringify(detail.body)).not.toMatch(/whsec_|enc:v1/);

    await restart();
    expect(warnings.some((w) => w.includes(`with key ${id2} cannot be opened`))).toBe(true);
    await addStock(server!.app, a.org.id, { productMasterId: productA, locationId: a.warehouse.id, lotCode: `L${lots++}` }, { ON_HAND: 1 });
    const none = await attemptsOf(a, sealed.id, (list) => list.some((t) => t.error?.includes('SECRETS_ENCRYPTION_KEY is not set')));
    expect(none.some((t) => t.error?.includes('SECRETS_ENCRYPTION_KEY is not set'))).toBe(true);

    // The key back: deliveries are signed again with the secret shown at rotation.
    await restart({ SECRETS_ENCRYPTION_KEY: KEY_2 });
    const request = await deliveredTo(a, '/sealed');
    expect(verifySignature(sealed.secret, request.signature, request.body)).toBe(true);
  });
});

describe('secrets encryption settings', () => {
  it('takes 32 bytes as hex, base64 or base64url; refuses anything else naming the variable, never the value', () => {
    for (const value of [KEY_1, KEY_2, KEY_3, KEY_1.replace(/=+$/, '')]) expect(loadConfig({ SECRETS_ENCRYPTION_KEY: value }).secretsEncryption.current).toBeInstanceOf(SecretKey);
    expect(loadConfig({}).secretsEncryption).toEqual({ current: undefined, previous: undefined });
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    const short = randomBytes(16).toString('base64');
    expect(refusal({ SECRETS_ENCRYPTION_KEY: short })).toMatch(/^SECRETS_ENCRYPTION_KEY must be 32 bytes .* decodes to 16 bytes/);
    expect(refusal({ SECRETS_ENCRYPTION_KEY: short })).not.toContain(short);
    expect(refusal({ SECRETS_ENCRYPTION_KEY: 'correct horse battery staple!' })).toMatch(/^SECRETS_ENCRYPTION_KEY must be 32 bytes/);
    expect(refusal({ SECRETS_ENCRYPTION_KEY: KEY_1, SECRETS_ENCRYPTION_KEY_PREVIOUS: 'abc' })).toMatch(/^SECRETS_ENCRYPTION_KEY_PREVIOUS must be 32 bytes/);
    expect(refusal({ SECRETS_ENCRYPTION_KEY_PREVIOUS: KEY_1 })).toMatch(/^SECRETS_ENCRYPTION_KEY_PREVIOUS is set but SECRETS_ENCRYPTION_KEY is not/);
    // The same key twice is one key.
    expect(loadConfig({ SECRETS_ENCRYPTION_KEY: KEY_1, SECRETS_ENCRYPTION_KEY_PREVIOUS: KEY_1 }).secretsEncryption.previous).toBeUndefined();
    // A key prints as its id only.
    expect(JSON.stringify(loadConfig({ SECRETS_ENCRYPTION_KEY: KEY_1 }).secretsEncryption)).toBe(`{"current":{"id":"${id1}"}}`);
  });

  it('seals bound to the row: another endpoint id or organization does not open it', () => {
    const keys = { current: new SecretKey(randomBytes(32)) };
    const owner = { id: 'e1', organizationId: 'o1' };
    const stored = sealWebhookSecret(keys, owner, 'whsec_x');
    expect(openWebhookSecret(keys, owner, stored)).toEqual({ ok: true, secret: 'whsec_x', stale: false });
    expect(openWebhookSecret(keys, { ...owner, id: 'e2' }, stored)).toMatchObject({ ok: false });
    expect(openWebhookSecret(keys, { ...owner, organizationId: 'o2' }, stored)).toMatchObject({ ok: false });
    expect(sealWebhookSecret({}, owner, 'whsec_x')).toBe('whsec_x');
  });

  it('reads the column in one module: only webhook-secret-store.ts selects it or opens it', () => {
    const readers = sourceFiles('src')
      .filter((file) => !file.startsWith('src/generated/'))
      .filter((file) => /secret: true|\.secret\b.*(startsWith|openWebhookSecret)|SELECT[^`]*\bsecret\b/.test(readFileSync(join(root, file), 'utf8')));
    expect(readers).toEqual(['src/services/webhooks/webhook-secret-store.ts']);
  });

  it('the server does not start with a bad key: one line on standard error naming the variable, exit code 1', async () => {
    const run = await runEntry('src/main.ts', [], { SECRETS_ENCRYPTION_KEY: 'not-a-key', DATA_DIR: 'memory://', DATABASE_URL: '' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(/^error: SECRETS_ENCRYPTION_KEY must be 32 bytes/);
    expect(run.stderr).not.toContain('not-a-key');
  }, 60_000);
});
