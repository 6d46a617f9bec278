import type { OrganizationStatus } from '../generated/prisma/enums.js';

/** An API key with its organization, as authentication reads it. */
export interface ApiKeyRow {
  id: string;
  keyHash: string;
  previousKeyHash: string | null;
  previousExpiresAt: Date | null;
  scopes: string[];
  allowedIps: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  orgId: string;
  orgName: string;
  orgStatus: OrganizationStatus;
  orgIndustry: string | null;
  orgCapabilities: string[];
}

/**
 * A short-lived cache of API key lookups, by key hash, for one process. Every request authenticates,
 * and for integrators posting stock changes the key lookup is a large share of a request's cost.
 * Entries live `ttlMs` (API_KEY_CACHE_SECONDS): a key revoked, rotated, changed or an organization
 * deactivated by another instance or by the admin CLI is refused by this one at most that much later.
 * Changes made through this instance clear the cache at once. Expiry and IP allow-lists are checked on
 * every request against the cached row, so they take effect immediately.
 */
export class ApiKeyCache<Row> {
  private readonly entries = new Map<string, { row: Row; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get enabled() {
    return this.ttlMs > 0;
  }

  get(hash: string, now: number): Row | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.until > now) return entry.row;
    this.entries.delete(hash);
    return undefined;
  }

  set(hash: string, row: Row, now: number) {
    if (!this.enabled) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { row, until: now + this.ttlMs });
  }

  clear() {
    this.entries.clear();
  }
}
