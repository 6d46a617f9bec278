/**
 * Counts sign-in attempts per account and per client address (App.signInThrottle; the counters live
 * in the rate limit store). Attempts are counted before the password is checked, so that concurrent
 * guesses cannot all pass a check made before any of them failed.
 */
export interface SignInThrottle {
  /** Counts one attempt. Resolves 0 when it may go on, else the seconds until the lock ends. */
  attempt(account: string, address: string): Promise<number>;
  /** The attempt succeeded: the account's count starts over and the address gets its attempt back. */
  succeeded(account: string, address: string): Promise<void>;
}
