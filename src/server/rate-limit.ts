import { json } from '../../rest-adapter/errors.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { credentialsFrom } from '../auth/credentials.js';
import { hashApiKey } from '../services/auth/secrets.js';
import type { SignInThrottle } from '../auth/sign-in-throttle.js';
import { looksLikeJwt, verifySessionToken } from '../services/auth/tokens.js';
import { LeasedCounter, type Take } from './leased-counter.js';
import { openLimiterStore, type LimiterStore } from './rate-limit-store.js';
import { createSignInThrottle } from './sign-in-throttle.js';

/** A shared store asks for this share of a limit at a time (at most LEASE_MAX points): see LeasedCounter. */
const LEASE_SHARE = 0.01;
const LEASE_MAX = 50;

export interface RateDecision {
  /** The 429 to send instead of handling the request. */
  refusal?: Response;
  /** RateLimit headers for the answer. */
  headers: Record<string, string>;
}

export interface RateLimits {
  /** Absent when every request limit is 0. */
  requests?: RequestLimiter;
  signIn?: SignInThrottle;
  close(): Promise<void>;
}

/** The request limits and the sign-in throttle over one store (see limiterStoreKind). */
export async function openRateLimits(config: Config, database: Database, jwtKey: Uint8Array, log?: (message: string) => void): Promise<RateLimits> {
  const store = await openLimiterStore(config, database, log);
  const { perApiKey, perUser, perAddress, anonymousPerAddress } = config.rateLimit;
  const requests = [perApiKey, perUser, perAddress, anonymousPerAddress].some((n) => n > 0) ? new RequestLimiter(config, store, jwtKey) : undefined;
  return {
    requests,
    signIn: createSignInThrottle(config, store),
    async close() {
      requests?.close();
      await store.close();
    },
  };
}

type Family = 'apiKey' | 'user' | 'address' | 'anonymous';

/**
 * Request limits, checked before authentication touches the database: per API key (by its hash), per
 * signed-in user (from the verified session token), per client address for every credentialed request,
 * and per address for requests without (or with unusable) credentials.
 */
export class RequestLimiter {
  private readonly counters: Partial<Record<Family, LeasedCounter>> = {};

  constructor(
    config: Config,
    store: LimiterStore,
    private readonly jwtKey: Uint8Array,
  ) {
    const { windowSeconds, perApiKey, perUser, perAddress, anonymousPerAddress } = config.rateLimit;
    const limits: Record<Family, number> = { apiKey: perApiKey, user: perUser, address: perAddress, anonymous: anonymousPerAddress };
    for (const [family, limit] of Object.entries(limits) as [Family, number][]) {
      if (!(limit > 0)) continue;
      const lease = store.kind === 'memory' ? 1 : Math.min(LEASE_MAX, Math.max(1, Math.ceil(limit * LEASE_SHARE)));
      this.counters[family] = new LeasedCounter(store.counter(`req-${family}`, { points: limit, windowSeconds }), limit, windowSeconds, lease);
    }
  }

  async check(request: Request, clientIp: string, graphql: boolean): Promise<RateDecision> {
    const { headers, retryAfter } = await this.take(request.headers, clientIp);
    if (retryAfter === undefined) return { headers };
    const message = refusalMessage(retryAfter);
    const body = graphql
      ? { errors: [{ message, extensions: { code: 'RATE_LIMITED', retryAfter } }] }
      : { error: message, code: 'RATE_LIMITED', retryAfter };
    return { headers, refusal: json(429, body, { ...headers, 'retry-after': String(retryAfter) }) };
  }

  /**
   * Counts one request with these credentials from this address: the RateLimit headers of the limit
   * closest to refusing and, when a limit refused it, the seconds until it may be retried. Also counts
   * graphql-ws connections and subscribe messages, which carry their credentials the same way.
   */
  async take(requestHeaders: Headers, clientIp: string): Promise<{ headers: Record<string, string>; retryAfter?: number }> {
    const buckets = await this.bucketsOf(requestHeaders, clientIp);
    let takes: Take[];
    try {
      takes = await Promise.all(buckets.flatMap(([family, key]) => this.counters[family]?.take(key) ?? []));
    } catch (error) {
      // A store that fails (and its in-memory insurance too) must not take the service down with it.
      console.error('rate limit store failed; request let through', error);
      return { headers: {} };
    }
    if (!takes.length) return { headers: {} };
    const refused = takes.filter((t) => !t.allowed);
    const binding = (refused.length ? refused : takes).reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetMs > a.resetMs) ? b : a));
    const headers = rateLimitHeaders(binding);
    if (!refused.length) return { headers };
    return { headers, retryAfter: Math.max(1, ...refused.map((t) => Math.ceil(t.resetMs / 1000))) };
  }

  close() {
    for (const counter of Object.values(this.counters)) counter.close();
  }

  private async bucketsOf(headers: Headers, clientIp: string): Promise<[Family, string][]> {
    let token: string | undefined;
    try {
      token = credentialsFrom(headers, clientIp).token;
    } catch {
      // A malformed Authorization header is refused later; it counts as anonymous.
    }
    if (token) {
      if (!looksLikeJwt(token)) return [['apiKey', hashApiKey(token)], ['address', clientIp]];
      const claims = await verifySessionToken(this.jwtKey, token);
      if (claims) return [['user', claims.userId], ['address', clientIp]];
    }
    return [['anonymous', clientIp]];
  }
}

export const refusalMessage = (retryAfter: number) => `Too many requests: retry after ${retryAfter} s`;

/** IETF draft-ietf-httpapi-ratelimit-headers (draft 6 field names), for the limit closest to refusing. */
function rateLimitHeaders(take: Take): Record<string, string> {
  const reset = Math.max(0, Math.ceil(take.resetMs / 1000));
  return {
    'ratelimit-limit': String(take.limit),
    'ratelimit-remaining': String(take.remaining),
    'ratelimit-reset': String(reset),
    'ratelimit-policy': `${take.limit};w=${take.windowSeconds}`,
  };
}

/**
 * The fetch handler behind the request limits: /health and CORS preflights (OPTIONS, which carry no
 * credentials and touch no data) are never counted; a refused request gets its 429 before anything
 * else runs; an answered one carries the RateLimit headers.
 */
export function limitRequests<S>(
  fetch: (request: Request, server: S) => Promise<Response>,
  limiter: RequestLimiter,
  clientIp: (request: Request, server: S) => string,
) {
  return async (request: Request, server: S): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname === '/health' || pathname.startsWith('/health/') || request.method === 'OPTIONS') return fetch(request, server);
    const decision = await limiter.check(request, clientIp(request, server), pathname === '/graphql');
    if (decision.refusal) return decision.refusal;
    const response = await fetch(request, server);
    for (const [name, value] of Object.entries(decision.headers)) response.headers.set(name, value);
    return response;
  };
}
