import { Response } from '@whatwg-node/fetch';
import { type DocumentNode, type ExecutionResult, GraphQLError, type GraphQLSchema, Kind, type OperationDefinitionNode, parse, type SelectionSetNode, validate } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { IttyRouter } from 'itty-router';
import type { RequestContext } from '../src/context.js';
import { DomainError, notFound } from '../src/kernel/errors.js';
import { parseJsonBody, readBodyBytes } from '../src/kernel/request-body.js';
import { assertCleanInput } from '../src/input-text.js';
import { absenceOf } from '../src/schema/field-errors-plugin.js';
import { assertSessionScopes, planGatedFields, sessionOnlyFields } from '../src/schema/session-field-check.js';
import { errorResponse, json, methodNotAllowed } from './errors.js';
import type { RestRequest, RouteSpec } from './route.js';
import type { Idempotent } from '../src/server/idempotency.js';
import { checkRouteInput } from './route-input.js';
import { type TypedMutationErrors, withTypedMutationErrors } from './typed-mutation-errors.js';

export interface RestAdapterOptions {
  schema: GraphQLSchema;
  routes: RouteSpec[];
  /** Authenticates the request; throws a DomainError for bad credentials. */
  buildContext: (request: Request, clientIp: string) => Promise<RequestContext>;
  /** Largest accepted JSON body in bytes. */
  maxBodyBytes?: number;
  /** Runs a POST once per Idempotency-Key (src/server/idempotency.ts); default: every request runs. */
  idempotent?: Idempotent;
}

const isPublic = (route: RouteSpec) => Array.isArray(route.doc.security) && route.doc.security.length === 0;

type RouterRequest = Request & { params: Record<string, string>; query: RestRequest['query'] };

interface CompiledRoute extends RouteSpec {
  definition: OperationDefinitionNode;
  /** authScopes of the root fields only a signed-in user may call, checked before the body is read. */
  sessionFields: ReturnType<typeof sessionOnlyFields>;
  /** authScopes of the root fields a plan capability gates (capability, then permission), also checked before the body is read. */
  planFields: ReturnType<typeof planGatedFields>;
  /** Response keys of the lookups by id (orNullWhenAbsent) the operation selects: null from one is the documented 404. */
  lookups: string[];
  run: (contextValue: RequestContext, variableValues: Record<string, unknown>) => Promise<ExecutionResult> | ExecutionResult;
  /** The data as the route selected it; throws a mutation's typed refusal as the REST error. */
  settle: TypedMutationErrors['settle'];
}

/** The response keys (alias or name) of the root fields that answer null for an unknown or foreign id. */
function lookupKeys(schema: GraphQLSchema, selectionSet: SelectionSetNode, document: DocumentNode): string[] {
  const fields = (schema.getQueryType()?.getFields() ?? {}) as Record<string, { extensions: { pothosOptions?: { orNullWhenAbsent?: boolean } } }>;
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return fields[selection.name.value]?.extensions.pothosOptions?.orNullWhenAbsent ? [(selection.alias ?? selection.name).value] : [];
    if (selection.kind === Kind.INLINE_FRAGMENT) return lookupKeys(schema, selection.selectionSet, document);
    const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
    return fragment?.kind === Kind.FRAGMENT_DEFINITION ? lookupKeys(schema, fragment.selectionSet, document) : [];
  });
}

function compile(schema: GraphQLSchema, route: RouteSpec): CompiledRoute {
  const { document, settle } = withTypedMutationErrors(schema, parse(route.operation));
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`${route.method} ${route.path}: invalid operation: ${errors.map((e) => e.message).join('; ')}`);
  const definition = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (!definition) throw new Error(`${route.method} ${route.path}: no operation`);
  // Every route runs the same operation on every request: graphql-jit turns it into a function once,
  // which executes it at a fraction of graphql-js's cost per field (the resolvers are the same).
  const jit = compileQuery(schema, document);
  if (!isCompiledQuery(jit)) throw new Error(`${route.method} ${route.path}: cannot compile: ${jit.errors?.map((e) => e.message).join('; ')}`);
  const run = (contextValue: RequestContext, variableValues: Record<string, unknown>) => jit.query(undefined, contextValue, variableValues);
  const lookups = definition.operation === 'query' ? lookupKeys(schema, definition.selectionSet, document) : [];
  return { ...route, definition, lookups, sessionFields: sessionOnlyFields(schema, definition, document), planFields: planGatedFields(schema, definition, document), run, settle };
}

async function readBody(request: Request, maxBytes: number): Promise<unknown> {
  if (request.method === 'GET' || request.method === 'DELETE') return undefined;
  const text = new TextDecoder().decode(await readBodyBytes(request, maxBytes));
  if (!text.trim()) return {};
  return parseJsonBody(text);
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  try {
    return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, decodeURIComponent(v)]));
  } catch {
    throw new DomainError('BAD_REQUEST', 'The path has a malformed percent-encoding: each % must start a %XX escape, and the escapes must spell valid UTF-8');
  }
}

/** The REST compatibility layer: each route runs its GraphQL operation in-process and shapes the result. */
export function createRestAdapter({ schema, routes, buildContext, maxBodyBytes = 1_048_576, idempotent = (_ctx, _request, _body, run) => run() }: RestAdapterOptions) {
  const router = IttyRouter();
  const compiled = routes.map((route) => compile(schema, route));
  // A path without parameters (/api/forecast/scenarios/compare) belongs to its own routes only: a route
  // with a parameter at that place (/api/forecast/scenarios/:id) never takes it, so a wrong method there
  // is 405 with the fixed path's methods, not a lookup of the id "compare".
  const fixedPaths = new Map<string, string[]>();
  for (const route of compiled.filter((r) => !r.path.includes(':'))) fixedPaths.set(route.path, [...(fixedPaths.get(route.path) ?? []), route.method]);
  for (const route of compiled) {
    const parameterized = route.path.includes(':');
    router[route.method.toLowerCase() as 'get'](route.path, (request: RouterRequest, clientIp: string) =>
      parameterized && fixedPaths.has(new URL(request.url).pathname) ? undefined : handle(route, request, clientIp).catch((error: unknown) => errorResponse(error, request)),
    );
  }

  async function handle(route: CompiledRoute, request: RouterRequest, clientIp: string) {
    // Credentials first (buildContext throws for bad ones): callers who are not let in learn nothing about
    // their input, and their body is never read, however large.
    const contextValue = await buildContext(request, clientIp);
    if (!contextValue.auth && !isPublic(route)) {
      throw new DomainError('MISSING_AUTHORIZATION', 'Authentication required: send Authorization: Bearer <API key or token>');
    }
    const params = decodeParams(request.params);
    // A caller who may never use the route (an API key on a session-only route, an organization without
    // the plan capability, a key without the permission of a plan-gated route) is refused before its body
    // is read or its input validated.
    assertSessionScopes(contextValue, route.sessionFields);
    assertSessionScopes(contextValue, route.planFields);
    const body = await readBody(request, route.maxBodyBytes ?? maxBodyBytes);
    // The answer (a refusal too) is what a retry with the same Idempotency-Key gets back.
    return idempotent(contextValue, request, body, () => answer(route, request, contextValue, params, body).catch((error: unknown) => errorResponse(error, request)));
  }

  async function answer(route: CompiledRoute, request: RouterRequest, contextValue: RequestContext, params: Record<string, string>, body: unknown) {
    const query = { ...request.query };
    // Named as the caller sent them (path and query parameters by name, body fields by their path), before mapping.
    assertCleanInput([...Object.entries(params), ...Object.entries(query), ['', body]]);
    const restRequest = checkRouteInput(route, { params, query, body, headers: request.headers });
    const variableValues = route.variables?.(restRequest) ?? {};
    const result = await route.run(contextValue, variableValues);
    if (result.errors?.length) {
      const [first] = result.errors as GraphQLError[];
      // An error without a path means GraphQL refused the variables: the route's contract let through what
      // the operation's types cannot take. Answer in our words (test/server/route-contracts.test.ts hunts for such gaps).
      if (!first!.path) throw new DomainError('VALIDATION_ERROR', 'The request does not fit this operation');
      throw first;
    }
    // GraphQL answers null for an unknown or foreign id; the documented path answers 404 with the service's message.
    for (const key of route.lookups) {
      if (result.data?.[key] === null) throw absenceOf(contextValue, key) ?? notFound('Record');
    }
    const data = route.settle(result.data);
    const status = typeof route.status === 'function' ? route.status(restRequest) : (route.status ?? 200);
    if (route.csv && /\btext\/csv\b/i.test(request.headers.get('accept') ?? '')) {
      return new Response(route.csv(data, restRequest), { status, headers: { 'content-type': 'text/csv; charset=utf-8' } });
    }
    return json(status, route.result(data, restRequest), route.headers?.(data, contextValue));
  }

  /** The methods of the routes whose path matches, in the route table's order. */
  const methodsOf = (pathname: string) =>
    fixedPaths.get(pathname) ?? [...new Set(router.routes.filter(([, pattern]) => pattern.test(pathname)).map(([method]) => method))];

  function unrouted(request: Request): Response {
    const { pathname } = new URL(request.url);
    const allowed = methodsOf(pathname);
    if (allowed.length) return methodNotAllowed(request.method, pathname, allowed);
    return json(404, { error: `No route for ${request.method} ${pathname}`, code: 'NOT_FOUND' });
  }

  return {
    routes: compiled,
    /** The registered [method, path] pairs, read back from the router. */
    registered: () => router.routes.map(([method, , , path]) => [method, path ?? ''] as const),
    fetch: async (request: Request, clientIp: string): Promise<Response> => (await router.fetch(request, clientIp)) ?? unrouted(request),
  };
}
