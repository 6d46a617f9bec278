import type { z } from 'zod';
import type { RequestContext } from '../src/context.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route's mappers see of the HTTP request. */
export interface RestRequest {
  params: Record<string, string>;
  /** As sent (text), or as the route's query contract parsed it (numbers, booleans, defaults). */
  query: Record<string, any>;
  body: unknown;
  headers: Headers;
}

/**
 * A fragment of an OpenAPI 3.1 operation (operationId, summary, tags, parameters, requestBody, responses).
 * x-permissions, x-scopes and x-plan-capability are never written here: the OpenAPI builder derives them
 * from the authScopes of the GraphQL fields the route's operation selects.
 */
export type OpenApiOperation = Record<string, unknown> & {
  /** Unique and stable, camelCase: typed clients name their functions after it. */
  operationId: string;
  summary: string;
  tags: string[];
  responses: Record<string, unknown>;
  'x-permissions'?: never;
  'x-scopes'?: never;
  'x-plan-capability'?: never;
};

export interface RouteSpec {
  method: HttpMethod;
  /** Path with :params, starting with /api (itty-router syntax). */
  path: string;
  /**
   * The GraphQL operation this route runs in-process; parsed and validated once at start-up. A lookup by id
   * it selects (`product(id:)`, declared `orNullWhenAbsent`) answers null when absent: the router answers
   * that with the 404 the service wrote, so a route needs nothing for it.
   */
  operation: string;
  /**
   * The route's contract (zod schemas from src/contracts): path and query are parsed through it and the body
   * checked against it before the operation runs, so a refusal names the caller's fields in our words; the
   * OpenAPI parameters and request body are generated from it.
   */
  input?: { params?: z.ZodType; query?: z.ZodObject; body?: z.ZodType };
  /** Maps path, query and body to the operation's variables. */
  variables?: (req: RestRequest) => Record<string, unknown>;
  /** Shapes the operation's data into the documented JSON. */
  result: (data: any, req: RestRequest) => unknown;
  /** The same answer as CSV, served instead of JSON when the request's Accept names text/csv. */
  csv?: (data: any, req: RestRequest) => string;
  /** Success status (default 200); a function when the request decides it (an import's dry run answers 200, the import 202). */
  status?: number | ((req: RestRequest) => number);
  /** Extra response headers, for example a session cookie. */
  headers?: (data: any, ctx: RequestContext) => Record<string, string>;
  doc: OpenApiOperation;
  /** Largest accepted body in bytes for this route (default: the adapter's maxBodyBytes). */
  maxBodyBytes?: number;
}

export const defineRoutes = (routes: RouteSpec[]) => routes;

/** An OpenAPI tag: the heading operations are grouped under, and what the group is for. */
export interface ApiTag {
  name: string;
  description: string;
}

/**
 * One area of the API (the same names as src/services and src/schema): its routes and the tags it introduces.
 * Each area folder exports exactly one. Response schemas are zod, in the routes' docs; their named parts become
 * OpenAPI components by themselves. `schemas` holds the components still written as JSON Schema by hand.
 */
export interface RestArea {
  routes: RouteSpec[];
  schemas?: Record<string, unknown>;
  tags: ApiTag[];
}
