import { aesGcmOpen, aesGcmSeal } from '../../kernel/aes-gcm.js';
import { currentLogger } from '../../kernel/log.js';
import type { SecretKey, SecretKeyring } from '../../kernel/secret-keys.js';
import type { DbContext } from '../../context.js';
import { newWebhookSecret } from './webhook-signature.js';

/**
 * The one door to `webhook_endpoints.secret` (docs/webhooks.md#the-secret-at-rest): every value written to it is
 * made here (create and rotate store what issueWebhookSecret gives; the re-sealing writes its own), and it is read
 * only here (signingSecrets for the delivery worker, the re-sealing at start).
 *
 * With SECRETS_ENCRYPTION_KEY set, a secret is stored sealed:
 *
 *     enc:v1:<key id>:<base64url of nonce (12) | tag (16) | AES-256-GCM ciphertext>
 *
 * with a key derived from the configured one for this column only (HKDF, "scm webhook endpoint secret v1") and
 * the row's organization and endpoint ids as additional authenticated data: a value copied onto another row
 * (another endpoint, another organization) does not open. `<key id>` names the key that sealed it, so the
 * previous key (SECRETS_ENCRYPTION_KEY_PREVIOUS) still opens what it sealed until the value is re-sealed. Without a
 * key, secrets are stored as issued (`whsec_…`, which no sealed value begins with), as before.
 */

const SEALED = 'enc:';
const VERSION = 'v1';
const PURPOSE = 'webhook endpoint secret v1';

/** The row a secret belongs to: the sealed value is bound to both ids. */
export interface SecretOwner {
  id: string;
  organizationId: string;
}

const aad = (owner: SecretOwner) => Buffer.from(`webhook_endpoints.secret\0${owner.organizationId}\0${owner.id}`, 'utf8');

/** Derived keys are cached per key (HKDF per delivery step would be waste); the map holds no more than the keyring. */
const derived = new WeakMap<SecretKey, Buffer>();
function columnKey(key: SecretKey): Buffer {
  let bytes = derived.get(key);
  if (!bytes) derived.set(key, (bytes = key.derive(PURPOSE)));
  return bytes;
}

/** The value to store for a secret: sealed with the current key, or the secret itself when there is none. */
export function sealWebhookSecret(keys: SecretKeyring, owner: SecretOwner, secret: string): string {
  if (!keys.current) return secret;
  const sealed = aesGcmSeal(columnKey(keys.current), Buffer.from(secret, 'utf8'), aad(owner));
  return `${SEALED}${VERSION}:${keys.current.id}:${sealed.toString('base64url')}`;
}

export type OpenedSecret =
  /** `stale`: stored in clear, or sealed with the previous key, while a current key is set: to be re-sealed. */
  | { ok: true; secret: string; stale: boolean }
  /** Why the stored value gives no secret; names keys by id only, never a secret. */
  | { ok: false; reason: string };

/** The key id a stored value names (null: stored in clear). */
const sealingKeyId = (stored: string): string | null => (stored.startsWith(SEALED) ? (stored.split(':')[2] ?? '') : null);

/** The secret a stored value holds, for signing. */
export function openWebhookSecret(keys: SecretKeyring, owner: SecretOwner, stored: string): OpenedSecret {
  if (!stored.startsWith(SEALED)) return { ok: true, secret: stored, stale: keys.current !== undefined };
  const [, version, keyId, data] = stored.split(':');
  if (version !== VERSION || !keyId || !data) return { ok: false, reason: `The signing secret is stored in a form this version does not read (${stored.slice(0, 12)}…)` };
  const candidates = [keys.current, keys.previous].filter((k): k is SecretKey => k?.id === keyId);
  if (!candidates.length) {
    const configured = [keys.current && `SECRETS_ENCRYPTION_KEY (${keys.current.id})`, keys.previous && `SECRETS_ENCRYPTION_KEY_PREVIOUS (${keys.previous.id})`].filter(Boolean);
    return {
      ok: false,
      reason: `The signing secret is sealed with encryption key ${keyId}, which this instance does not have (${configured.length ? `it has ${configured.join(' and ')}` : 'SECRETS_ENCRYPTION_KEY is not set'}); not sent`,
    };
  }
  // Two keys of one id (a 1 in 4 billion chance) are both tried.
  for (const key of candidates) {
    const opened = aesGcmOpen(columnKey(key), Buffer.from(data, 'base64url'), aad(owner));
    if (opened) return { ok: true, secret: opened.toString('utf8'), stale: key !== keys.current };
  }
  return { ok: false, reason: `The signing secret does not open with encryption key ${keyId}: it was altered, or it belongs to another endpoint; not sent (rotate the secret)` };
}

/** A new secret for an endpoint: the secret to show once, and the value to store. */
export function issueWebhookSecret(keys: SecretKeyring, owner: SecretOwner): { secret: string; stored: string } {
  const secret = newWebhookSecret();
  return { secret, stored: sealWebhookSecret(keys, owner, secret) };
}

/**
 * Writes re-sealed values in one statement, each only while its row still holds the value it was made from (a
 * rotation, or another instance doing the same, in between wins); updatedAt is left alone (nothing the tenant
 * changed).
 */
async function writeResealed(ctx: DbContext, changes: { id: string; old: string; stored: string }[]) {
  if (!changes.length) return;
  await ctx.prisma.$executeRaw`
    UPDATE webhook_endpoints e SET secret = c.stored
    FROM unnest(${changes.map((c) => c.id)}::text[], ${changes.map((c) => c.old)}::text[], ${changes.map((c) => c.stored)}::text[]) AS c(id, old, stored)
    WHERE e.id = c.id AND e.secret = c.old`;
}

/**
 * The signing secrets of the endpoints a delivery step sends to, opened, by endpoint id (the worker,
 * webhook-attempts.ts). Those stored in clear or under the previous key while a current key is set (written by an
 * instance not yet given the key, or not yet restarted with the new one) are re-sealed with the current key on the
 * way, in one statement.
 */
export async function signingSecrets(ctx: DbContext, keys: SecretKeyring, endpointIds: string[]): Promise<Map<string, OpenedSecret>> {
  const rows = await ctx.prisma.webhookEndpoint.findMany({ where: { id: { in: endpointIds } }, select: { id: true, organizationId: true, secret: true } });
  const opened = rows.map((row) => ({ row, secret: openWebhookSecret(keys, row, row.secret) }));
  const stale = opened.flatMap(({ row, secret }) => (secret.ok && secret.stale ? [{ id: row.id, old: row.secret, stored: sealWebhookSecret(keys, row, secret.secret) }] : []));
  // Signing does not wait on it: a failed write leaves the value as it was, to be re-sealed next time.
  await writeResealed(ctx, stale).catch((error: unknown) => currentLogger().warn({ err: error }, 'webhook secrets: re-sealing on use failed'));
  return new Map(opened.map(({ row, secret }) => [row.id, secret]));
}

/** Rows re-sealed per statement at start. */
const RESEAL_BATCH = 200;

export interface ResealSummary {
  /** Secrets found in clear and sealed with the current key. */
  sealed: number;
  /** Secrets sealed with the previous key and re-sealed with the current one. */
  resealed: number;
  /** Sealed secrets that no configured key opens (their deliveries fail until one does), by key id. */
  unreadable: Map<string, number>;
}

/**
 * At start (src/server/start.ts): with a current key, every secret not sealed with it (in clear, or sealed with
 * the previous key) is sealed with it, in batches of RESEAL_BATCH rows, one statement each (writeResealed).
 * Without a key nothing is written. Either way, sealed
 * values that no configured key opens are counted and reported in one warning: their endpoints cannot be signed.
 */
export async function resealWebhookSecrets(ctx: DbContext, keys: SecretKeyring): Promise<ResealSummary> {
  const summary: ResealSummary = { sealed: 0, resealed: 0, unreadable: new Map() };
  const current = keys.current;
  let after = '';
  for (;;) {
    // Only rows not sealed with the current key are read: after the first start with a key, this reads nothing.
    const rows = await ctx.prisma.webhookEndpoint.findMany({
      where: { id: { gt: after }, ...(current ? { NOT: { secret: { startsWith: `${SEALED}${VERSION}:${current.id}:` } } } : { secret: { startsWith: SEALED } }) },
      orderBy: { id: 'asc' },
      take: RESEAL_BATCH,
      select: { id: true, organizationId: true, secret: true },
    });
    if (!rows.length) break;
    after = rows.at(-1)!.id;
    const changes: { id: string; old: string; stored: string }[] = [];
    for (const row of rows) {
      const opened = openWebhookSecret(keys, row, row.secret);
      if (!opened.ok) {
        const keyId = sealingKeyId(row.secret) ?? '?';
        summary.unreadable.set(keyId, (summary.unreadable.get(keyId) ?? 0) + 1);
      } else if (current && opened.stale) {
        if (row.secret.startsWith(SEALED)) summary.resealed++;
        else summary.sealed++;
        changes.push({ id: row.id, old: row.secret, stored: sealWebhookSecret(keys, row, opened.secret) });
      }
    }
    await writeResealed(ctx, changes);
    if (rows.length < RESEAL_BATCH) break;
  }
  return summary;
}

/**
 * What start does about the secrets (src/server/start.ts): the re-sealing above, one info line when it sealed
 * anything, one warning when some secret opens with no configured key, and one warning on PostgreSQL without a
 * key (secrets in clear; the embedded database of a bare `npm start` is not warned about).
 */
export async function prepareWebhookSecrets(ctx: DbContext, keys: SecretKeyring, options: { databaseKind: 'postgres' | 'pglite'; log: (message: string) => void }) {
  const logger = currentLogger();
  if (!keys.current && options.databaseKind === 'postgres') {
    logger.warn('SECRETS_ENCRYPTION_KEY is not set: webhook signing secrets are stored in clear in the database (docs/webhooks.md#the-secret-at-rest)');
  }
  const summary = await resealWebhookSecrets(ctx, keys);
  if (summary.sealed || summary.resealed) {
    options.log(`webhook secrets: ${summary.sealed} sealed and ${summary.resealed} re-sealed with encryption key ${keys.current!.id}`);
  }
  if (summary.unreadable.size) {
    const byKey = [...summary.unreadable].map(([id, n]) => `${n} with key ${id}`).join(', ');
    logger.warn(
      { unreadable: Object.fromEntries(summary.unreadable) },
      `webhook secrets: ${byKey} cannot be opened with the configured SECRETS_ENCRYPTION_KEY / SECRETS_ENCRYPTION_KEY_PREVIOUS: deliveries to those endpoints fail until the key is configured again (or their secrets are rotated)`,
    );
  }
  return summary;
}
