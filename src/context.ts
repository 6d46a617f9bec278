import type { Config } from './config.js';
import type { Client } from './db/database.js';
import type { DirectSql } from './db/direct-sql.js';
import type { Db } from './db/transactions.js';
import type { OrganizationStatus, Role } from './generated/prisma/enums.js';
import type { ApiKeyCache, ApiKeyRow } from './auth/api-key-cache.js';
import { type Permission, permissionsForScopes } from './auth/permissions.js';
import type { SignInThrottle } from './auth/sign-in-throttle.js';
import type { EventFanOut } from './services/events/publisher/event-fan-out.js';
import type { ForecastWorkerPool } from './services/forecasting/engine/worker-pool.js';

export interface Actor {
  type: 'user' | 'apiKey';
  id: string;
  /** The user's role in the organization (users only). */
  role?: Role;
  /** The API key's scopes (API keys only). */
  scopes?: string[];
}

export interface AuthInfo {
  organization: { id: string; name: string; status: OrganizationStatus; industry: string | null; capabilities: string[] };
  actor: Actor;
  permissions: ReadonlySet<Permission>;
  /** The session behind a signed-in user's token (users only). */
  sessionId?: string;
  /** When these credentials stop working on their own (the session's end, the key's expiry). */
  expiresAt?: Date;
}

/** What any work with the database carries: its handle, and the client a transaction is opened on. */
export interface DbContext {
  /** The client, or the transaction the work runs in (see inTransaction in db/transactions.ts). */
  prisma: Db;
  /** True when `prisma` is a transaction (set by inTransaction only). */
  inTransaction?: true;
  app: { prisma: Client };
}

/**
 * The context of an operator's work on the whole installation (the admin CLI, the demo seed, test
 * set-up): no organization of its own, so only the operator operations take it.
 */
export interface OperatorContext extends DbContext {
  /** Where the work comes from: 'admin-cli', 'demo-seed', 'test-setup', ... */
  origin: string;
}

export const operatorContext = (client: Client, origin: string): OperatorContext => ({ prisma: client, app: { prisma: client }, origin });

/** What every service function and resolver receives first. */
export interface RequestContext extends DbContext {
  /** null when the request carried no credentials. */
  auth: AuthInfo | null;
  clientIp: string;
  app: App;
}

/** What every request shares: made once at start-up. */
export interface App {
  prisma: Client;
  config: Config;
  /** Key that signs session tokens (from JWT_SECRET or the database, never per process). */
  jwtKey: Uint8Array;
  /** PostgreSQL: the hot paths' statements straight on the pool (absent: Prisma runs them, as on PGlite). */
  directSql?: DirectSql;
  /** Recent API key lookups (absent: every request looks its key up). */
  apiKeys?: ApiKeyCache<ApiKeyRow>;
  /** Sign-in attempt counters (absent: sign-in is not throttled). */
  signInThrottle?: SignInThrottle;
  /** Worker threads that fit forecasts, shared by every request (absent: forecasts are fitted on the calling thread, as in scripts). */
  forecastPool?: ForecastWorkerPool;
  /** This instance's fan-out of published domain events (absent: no events are delivered, as in scripts). */
  events?: EventFanOut;
}

/** Whom a system context acts as: an organization, and the user or API key the work is done for. */
export interface SystemActor {
  organization: AuthInfo['organization'];
  /** Named in the ledger and in what the work creates (an import acts as the job's creator). */
  actor: Actor;
  /** Where the work comes from, in place of a client address: 'import-worker', 'test-setup', ... */
  origin: string;
  /** What it may do (default: every permission, as an API key with the scope `*`). */
  permissions?: Iterable<Permission>;
}

/**
 * The context of work done outside a request (the import worker, test set-up, scripts): the one way to
 * make one. Services take it first, as they take a request's, and the transaction they run in explicitly
 * where a caller owns one.
 */
export function systemContext(app: App, as: SystemActor): RequestContext {
  return {
    app,
    prisma: app.prisma,
    clientIp: as.origin,
    auth: { organization: as.organization, actor: as.actor, permissions: new Set(as.permissions ?? permissionsForScopes(['*'])) },
  };
}
