// The rate-limit settings the benchmarks start the service with.

/**
 * The service runs with its rate limiter on and its default store (PostgreSQL or memory), but with
 * limits no load here reaches (one API key from one address sends ~1,000 requests a second; the
 * defaults allow 3,000 a minute): what is measured is the limiter's cost, not its refusals. At these
 * limits each counter leases 50 points per store round trip (the default API-key limit leases 30).
 */
export const RATE_LIMITS_RAISED: Record<string, string> = {
  RATE_LIMIT_PER_API_KEY: '1000000000',
  RATE_LIMIT_PER_USER: '1000000000',
  RATE_LIMIT_PER_ADDRESS: '1000000000',
  RATE_LIMIT_ANONYMOUS_PER_ADDRESS: '1000000000',
};

/** Every request limit off (sign-in throttling stays on; no target signs in). */
export const RATE_LIMITS_OFF: Record<string, string> = Object.fromEntries(Object.keys(RATE_LIMITS_RAISED).map((name) => [name, '0']));
