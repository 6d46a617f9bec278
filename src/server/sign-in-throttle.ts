import { createHash } from 'node:crypto';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import type { SignInThrottle } from '../auth/sign-in-throttle.js';
import type { LimiterStore } from './rate-limit-store.js';

// Emails are kept as hashes: the store needs no readable account names, and the key length is fixed.
const accountKey = (email: string) => createHash('sha256').update(email).digest('hex');

/** Seconds of the lock when the counter refused the attempt; failures of the store itself let it through. */
async function lockSeconds(counter: RateLimiterAbstract | undefined, key: string): Promise<number> {
  if (!counter) return 0;
  try {
    await counter.consume(key);
    return 0;
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    console.error('sign-in throttle store failed; attempt let through', refusal);
    return 0;
  }
}

/**
 * Up to SIGN_IN_MAX_FAILURES attempts per account and SIGN_IN_MAX_FAILURES_PER_ADDRESS per address
 * within SIGN_IN_WINDOW_SECONDS; the next one locks that account (or address) for SIGN_IN_LOCK_SECONDS.
 * Unknown emails are counted exactly like known ones.
 */
export function createSignInThrottle(config: Config, store: LimiterStore): SignInThrottle | undefined {
  const { maxFailures, maxFailuresPerAddress, windowSeconds, lockSeconds: blockSeconds } = config.signIn;
  const account = maxFailures > 0 ? store.counter('signin-account', { points: maxFailures, windowSeconds, blockSeconds }) : undefined;
  const address = maxFailuresPerAddress > 0 ? store.counter('signin-address', { points: maxFailuresPerAddress, windowSeconds, blockSeconds }) : undefined;
  if (!account && !address) return undefined;
  return {
    async attempt(email, ip) {
      const [byAccount, byAddress] = await Promise.all([lockSeconds(account, accountKey(email)), lockSeconds(address, ip)]);
      return Math.max(byAccount, byAddress);
    },
    async succeeded(email, ip) {
      await Promise.all([account?.delete(accountKey(email)), address?.reward(ip)]).catch((error) => console.error('sign-in throttle store failed', error));
    },
  };
}
