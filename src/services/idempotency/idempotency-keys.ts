import { Prisma } from '../../generated/prisma/client.js';
import type { RequestContext } from '../../context.js';

const NOW = Prisma.sql`(now() AT TIME ZONE 'UTC')`;
const millis = (ms: number) => Prisma.sql`${Math.round(ms)}::bigint * interval '1 millisecond'`;

/** A key as the store knows it: the organization's, by hash, for one request's fingerprint. */
export interface KeyClaim {
  keyHash: string;
  fingerprint: string;
  /** How long the first request holds the key before a retry may take it over. */
  lockMs: number;
  /** How long the key and its answer are kept. */
  ttlMs: number;
}

/** What a claim found: the key is this request's to run; another request runs it; it was sent with another request; or its answer. */
export type ClaimOutcome =
  | { state: 'claimed' }
  | { state: 'in-progress' }
  | { state: 'mismatch' }
  | { state: 'answered'; status: number; sealed: Uint8Array };

const organizationOf = (ctx: RequestContext) => {
  if (!ctx.auth) throw new Error('Idempotency keys belong to an organization: the request has no credentials');
  return ctx.auth.organization.id;
};

/**
 * Takes the key for this request in one statement: a new key; an expired one (kept past its time, not yet
 * pruned); or one whose first request stopped holding it (its process died) for the same request. Concurrent
 * requests with one key meet at the primary key: one inserts, the others find its row.
 */
export async function claimIdempotencyKey(ctx: RequestContext, claim: KeyClaim): Promise<ClaimOutcome> {
  const organizationId = organizationOf(ctx);
  // The row may be pruned between the two statements (it had expired): then the claim is tried again.
  for (let round = 0; round < 3; round += 1) {
    const taken = await ctx.prisma.$queryRaw<{ taken: number }[]>`
      INSERT INTO idempotency_keys ("organizationId", "keyHash", fingerprint, "lockedUntil", "createdAt", "expiresAt")
      VALUES (${organizationId}, ${claim.keyHash}, ${claim.fingerprint}, ${NOW} + ${millis(claim.lockMs)}, ${NOW}, ${NOW} + ${millis(claim.ttlMs)})
      ON CONFLICT ("organizationId", "keyHash") DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, "lockedUntil" = EXCLUDED."lockedUntil", "responseStatus" = NULL, response = NULL,
            "createdAt" = EXCLUDED."createdAt", "expiresAt" = EXCLUDED."expiresAt"
        WHERE idempotency_keys."expiresAt" <= ${NOW}
           OR (idempotency_keys."responseStatus" IS NULL AND idempotency_keys."lockedUntil" <= ${NOW} AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
      RETURNING 1 AS taken`;
    if (taken.length) return { state: 'claimed' };
    const [row] = await ctx.prisma.$queryRaw<{ fingerprint: string; responseStatus: number | null; response: Uint8Array | null }[]>`
      SELECT fingerprint, "responseStatus", response FROM idempotency_keys
      WHERE "organizationId" = ${organizationId} AND "keyHash" = ${claim.keyHash} AND "expiresAt" > ${NOW}`;
    if (!row) continue;
    if (row.fingerprint !== claim.fingerprint) return { state: 'mismatch' };
    if (row.responseStatus === null || row.response === null) return { state: 'in-progress' };
    return { state: 'answered', status: row.responseStatus, sealed: row.response };
  }
  return { state: 'in-progress' };
}

/** Keeps the answer of the request that holds the key (a request that lost its hold to a retry writes nothing). */
export async function storeIdempotentAnswer(ctx: RequestContext, claim: Pick<KeyClaim, 'keyHash' | 'fingerprint'>, status: number, sealed: Uint8Array): Promise<void> {
  await ctx.prisma.$executeRaw`
    UPDATE idempotency_keys SET "responseStatus" = ${status}, response = ${Buffer.from(sealed)}, "lockedUntil" = NULL
    WHERE "organizationId" = ${organizationOf(ctx)} AND "keyHash" = ${claim.keyHash} AND fingerprint = ${claim.fingerprint} AND "responseStatus" IS NULL`;
}

/** Lets the key go without an answer (the request failed unexpectedly): the next request with it runs afresh. */
export async function releaseIdempotencyKey(ctx: RequestContext, claim: Pick<KeyClaim, 'keyHash' | 'fingerprint'>): Promise<void> {
  await ctx.prisma.$executeRaw`
    DELETE FROM idempotency_keys
    WHERE "organizationId" = ${organizationOf(ctx)} AND "keyHash" = ${claim.keyHash} AND fingerprint = ${claim.fingerprint} AND "responseStatus" IS NULL`;
}
