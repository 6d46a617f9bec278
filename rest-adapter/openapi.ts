import type { GraphQLSchema } from 'graphql';
import { z } from 'zod';
import { contractDocs } from './contract-docs.js';
import { operationScopes } from './operation-scopes.js';
import type { ApiTag, RestArea, RouteSpec } from './route.js';
import { errorResponses, idempotencyKeyParameter, jsonContent } from './openapi-common.js';
import { responseDocs } from './response-docs.js';

export const OPENAPI_PATH = '/api/openapi.json';
/** The rendered reference of this description (Redoc, served from our own packages). */
export const API_DOCS_PATH = '/api/docs';

/** What x-permissions, x-scopes and x-plan-capability say of an operation, from its GraphQL fields. */
function scopeExtensions(schema: GraphQLSchema, operation: string) {
  const { permissions, capabilities, apiKeyScopes } = operationScopes(schema, operation);
  return {
    ...(permissions.length ? { 'x-permissions': permissions } : {}),
    ...(apiKeyScopes.length ? { 'x-scopes': apiKeyScopes } : {}),
    ...(capabilities.length ? { 'x-plan-capability': capabilities.join(' ') } : {}),
  };
}

/**
 * OpenAPI 3.1 description built from the routes themselves, so the two cannot drift apart. Built once at
 * start-up (the scopes are read from the schema then); only the server URL depends on the request.
 */
export function describeRestApi(schema: GraphQLSchema, areas: RestArea[]): (baseUrl: string) => object {
  const paths: Record<string, Record<string, unknown>> = {};
  // Filled with the named response schemas (zod `.meta({ id })`) as the operations' responses are generated.
  const schemas: Record<string, unknown> = {};
  const all = [...areas.flatMap((area) => area.routes.map((route) => ({ ...route.doc, ...contractDocs(route), ...scopeExtensions(schema, route.operation), route }))), { ...openApiRoute.doc, route: openApiRoute }, { ...apiDocsRoute.doc, route: apiDocsRoute }];
  for (const { route, ...doc } of all) {
    const path = route.path.replace(/^\/api/, '').replace(/:(\w+)/g, '{$1}');
    // Every authenticated POST takes an Idempotency-Key (docs/idempotency.md), and with it may answer 409 and 422.
    const { security, parameters: given } = doc as { security?: unknown; parameters?: unknown[] };
    const idempotent = route.method === 'POST' && !(Array.isArray(security) && security.length === 0);
    const parameters = idempotent ? [...(given ?? []), idempotencyKeyParameter] : given;
    const keyed = idempotent ? { 409: (doc.responses as Record<string, unknown>)[409] ?? errorResponses[409], 422: errorResponses[422] } : {};
    // Any request may meet a rate limit (docs/limits.md) or an unexpected failure.
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      ...doc,
      ...(parameters ? { parameters } : {}),
      responses: responseDocs({ ...doc.responses, ...keyed, 429: errorResponses[429], 500: errorResponses[500] }, schemas),
    };
  }
  const tags = new Map<string, ApiTag>([...areas.flatMap((area) => area.tags), ADMINISTRATION].map((tag) => [tag.name, tag]));
  for (const area of areas) {
    for (const [name, schema] of Object.entries(area.schemas ?? {})) {
      if (name in schemas) throw new Error(`OpenAPI component ${name} is both generated and written by hand`);
      schemas[name] = schema;
    }
  }
  return (baseUrl) => document(baseUrl, [...tags.values()], paths, schemas);
}

function document(baseUrl: string, tags: ApiTag[], paths: Record<string, unknown>, schemas: Record<string, unknown>) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Supply Chain Management Service',
      version: '1.0.0',
      description:
        'Multi-tenant supply chain management. Every operation is limited to the caller\'s organization. ' +
        'The same operations are available over GraphQL at /graphql. ' +
        'A method a path does not have is 405 METHOD_NOT_ALLOWED with an Allow header listing the path\'s methods; an unknown path is 404 NOT_FOUND. ' +
        'Request bodies are JSON, at most 1 MB (50 MB for imports; larger: 413); no text may hold a NUL character or a lone surrogate (it must be well-formed Unicode) and no input may nest more than 32 levels (400 VALIDATION_ERROR naming the field). ' +
        'Browsers: only origins listed in the server\'s CORS_ORIGINS get CORS headers. A request authenticated by the ' +
        'scm_session cookie must come from this server\'s origin or a listed one (403 CSRF_REJECTED otherwise) and must ' +
        'send its body as Content-Type: application/json (415 UNSUPPORTED_MEDIA_TYPE otherwise).',
    },
    servers: [{ url: `${baseUrl.replace(/\/$/, '')}/api` }],
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { sessionCookie: [] }],
    tags,
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (scm_…) or a session token (JWT) from POST /auth/sign-in.' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'scm_session',
          description: 'Set by POST /auth/sign-in for browsers. Requests carrying only this cookie must come from this server\'s origin or a CORS_ORIGINS entry (403 CSRF_REJECTED) and send JSON bodies as application/json (415 UNSUPPORTED_MEDIA_TYPE).',
        },
      },
    },
  };
}

const ADMINISTRATION: ApiTag = {
  name: 'Administration',
  description: 'API keys of the organization (managed by a signed-in ADMIN) and this machine-readable description.',
};

/** Served outside the GraphQL routes; listed here so the description names itself. */
export const openApiRoute: Pick<RouteSpec, 'method' | 'path' | 'doc'> = {
  method: 'GET',
  path: OPENAPI_PATH,
  doc: {
    operationId: 'getOpenApiDescription',
    summary: 'This machine-readable description',
    tags: ['Administration'],
    security: [],
    responses: { 200: { description: 'OpenAPI 3.1 document', ...jsonContent(z.looseObject({})) } },
  },
};

/** The reference page, served outside the GraphQL routes like the description it renders. */
export const apiDocsRoute: Pick<RouteSpec, 'method' | 'path' | 'doc'> = {
  method: 'GET',
  path: API_DOCS_PATH,
  doc: {
    operationId: 'getApiReferencePage',
    summary: 'This description as a page to read (HTML)',
    description: 'The REST reference rendered by Redoc in the browser, every file served by this server (it works offline).',
    tags: ['Administration'],
    security: [],
    responses: { 200: { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
  },
};
