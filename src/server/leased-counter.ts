import type { RateLimiterAbstract } from 'rate-limiter-flexible';

export interface Take {
  allowed: boolean;
  limit: number;
  windowSeconds: number;
  /** Requests left in this window after this one (as far as this instance knows). */
  remaining: number;
  /** Milliseconds until the window ends. */
  resetMs: number;
}

interface Lease {
  /** Points of the window used before this lease (by every instance). */
  usedBefore: number;
  granted: number;
  left: number;
  resetAt: number;
  /** The store had no more points than these: once they are spent, refuse until resetAt. */
  last: boolean;
}

/**
 * A shared counter that does not ask its store on every request: it takes `leaseSize` points from the
 * store at a time and spends them locally. The shared count is therefore never exceeded; the price is
 * that points leased by one instance and not spent by the end of the window are lost, so across N
 * instances a caller may be refused up to (N − 1) × leaseSize requests early. With a lease of 1 every
 * request asks the store (exact).
 */
export class LeasedCounter {
  private readonly leases = new Map<string, Lease>();
  private readonly renewing = new Map<string, Promise<void>>();
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly counter: RateLimiterAbstract,
    readonly limit: number,
    readonly windowSeconds: number,
    private readonly leaseSize: number,
  ) {
    // Leases of keys that stopped coming would otherwise stay forever.
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const [key, lease] of this.leases) if (lease.resetAt <= now) this.leases.delete(key);
    }, windowSeconds * 1000);
    this.sweep.unref();
  }

  async take(key: string): Promise<Take> {
    for (;;) {
      const now = Date.now();
      const lease = this.leases.get(key);
      if (lease && lease.resetAt > now) {
        if (lease.left > 0) {
          lease.left -= 1;
          return this.answer(true, lease, now);
        }
        if (lease.last) return this.answer(false, lease, now);
      }
      await this.renew(key);
    }
  }

  close() {
    clearInterval(this.sweep);
  }

  private answer(allowed: boolean, lease: Lease, now: number): Take {
    const remaining = Math.max(0, this.limit - lease.usedBefore - (lease.granted - lease.left));
    return { allowed, limit: this.limit, windowSeconds: this.windowSeconds, remaining, resetMs: lease.resetAt - now };
  }

  /** Concurrent requests of one key share one round trip to the store. */
  private renew(key: string): Promise<void> {
    let renewing = this.renewing.get(key);
    if (!renewing) {
      renewing = this.counter
        .penalty(key, this.leaseSize)
        .then((res) => {
          const usedBefore = Math.min(this.limit, res.consumedPoints - this.leaseSize);
          const granted = Math.max(0, Math.min(this.leaseSize, this.limit - usedBefore));
          const windowMs = res.msBeforeNext > 0 ? res.msBeforeNext : this.windowSeconds * 1000;
          this.leases.set(key, { usedBefore, granted, left: granted, resetAt: Date.now() + windowMs, last: usedBefore + granted >= this.limit });
        })
        .finally(() => this.renewing.delete(key));
      this.renewing.set(key, renewing);
    }
    return renewing;
  }
}
