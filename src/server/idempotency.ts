import { Response } from '@whatwg-node/fetch';
import { createHash } from 'node:crypto';
import type { Config } from '../config.js';
import type { RequestContext } from '../context.js';
import { DomainError } from '../kernel/errors.js';
import { currentLogger, requestIds } from '../kernel/log.js';
import { MAX_INPUT_DEPTH } from '../input-text.js';
import { claimIdempotencyKey, type KeyClaim, releaseIdempotencyKey, storeIdempotentAnswer } from '../services/idempotency/idempotency-keys.js';
import { idempotencyKeyHash, openAnswer, sealAnswer } from './idempotency-seal.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Answers larger than this are not kept (the key is let go): retrying such a request runs it again. */
const MAX_KEPT_BYTES = 1_048_576;
/** The headers of an answer that are kept with it; the others (X-Request-Id, CORS, rate limits) are the replay's own. */
const KEPT_HEADERS = ['content-type', 'location'];

/**
 * Runs a POST once per Idempotency-Key (docs/idempotency.md); anything else runs as it is. The same key with
 * the same request answers what the first one answered, with Idempotent-Replayed: true, without running it
 * again; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE; with another request, 422
 * IDEMPOTENCY_KEY_MISMATCH. Keys are the organization's and kept in PostgreSQL, so they hold across instances.
 */
export type Idempotent = (ctx: RequestContext, request: Request, body: unknown, run: () => Promise<Response>) => Promise<Response>;

/** The body with every object's keys in order, so that the same request sent with its fields in another order is the same request. */
function canonical(value: unknown, depth = 0): unknown {
  if (depth > MAX_INPUT_DEPTH) throw new DomainError('VALIDATION_ERROR', `The body nests more than ${MAX_INPUT_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((item) => canonical(item, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key], depth + 1)]));
  }
  return value;
}

/** What makes two requests the same one: method, path and query, the caller, and the body. */
function fingerprintOf(ctx: RequestContext, request: Request, body: unknown): string {
  const url = new URL(request.url);
  const actor = ctx.auth!.actor;
  return createHash('sha256').update(JSON.stringify([request.method, url.pathname + url.search, actor.type, actor.id, canonical(body ?? null)])).digest('hex');
}

export function createIdempotency(settings: Config['idempotency']): Idempotent {
  const ttlMs = settings.ttlHours * 3_600_000;
  const lockMs = settings.lockSeconds * 1000;

  return async (ctx, request, body, run) => {
    const key = request.headers.get(IDEMPOTENCY_HEADER);
    if (key === null || request.method !== 'POST' || !ctx.auth) return run();
    if (!KEY_PATTERN.test(key)) {
      throw new DomainError('VALIDATION_ERROR', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a random UUID is a good key)', {
        details: { 'Idempotency-Key': ['Must be 1 to 255 visible ASCII characters, without spaces'] },
      });
    }
    const organizationId = ctx.auth.organization.id;
    const claim: KeyClaim = { keyHash: idempotencyKeyHash(key), fingerprint: fingerprintOf(ctx, request, body), lockMs, ttlMs };
    const found = await claimIdempotencyKey(ctx, claim);
    const mismatch = () =>
      new DomainError('IDEMPOTENCY_KEY_MISMATCH', 'This Idempotency-Key was already sent with another request (method, path, caller or body); send a new key for a new request');
    if (found.state === 'mismatch') throw mismatch();
    if (found.state === 'in-progress') {
      throw new DomainError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running; retry shortly to get its answer', { retryAfter: 1 });
    }
    if (found.state === 'answered') {
      const answer = openAnswer(found.sealed, key, organizationId);
      if (!answer) throw mismatch();
      return new Response(answer.body, { status: found.status, headers: { ...answer.headers, [REPLAYED_HEADER]: 'true' } });
    }

    let response: Response;
    try {
      response = await run();
    } catch (error) {
      await releaseIdempotencyKey(ctx, claim).catch(() => {});
      throw error;
    }
    const type = response.headers.get('content-type') ?? '';
    // A failure of ours (or a client gone) is not an answer to keep: the work rolled back, a retry may succeed.
    if (response.status >= 499 || !type.includes('json')) {
      await releaseIdempotencyKey(ctx, claim).catch(() => {});
      return response;
    }
    const text = await response.text();
    const out = new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    // GraphQL answers an unexpected failure with 200 and the masked error: not kept either.
    if (text.length > MAX_KEPT_BYTES || text.includes('"code":"INTERNAL_SERVER_ERROR"')) {
      await releaseIdempotencyKey(ctx, claim).catch(() => {});
      return out;
    }
    const headers = Object.fromEntries(KEPT_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])));
    try {
      await storeIdempotentAnswer(ctx, claim, response.status, sealAnswer({ headers, body: text }, key, organizationId));
    } catch (error) {
      // The work is done and answered; only its replay is lost (the key stays held until IDEMPOTENCY_LOCK_SECONDS).
      currentLogger().warn({ err: error, requestId: requestIds.get(request) }, 'idempotency key: the answer could not be kept');
    }
    return out;
  };
}
