import { Response } from '@whatwg-node/fetch';
import { processMetrics } from '../kernel/metrics.js';
import { errorRequestIds, requestIds } from '../kernel/log.js';
import type { IncomingMessage } from 'node:http';
import { readFileSync } from 'node:fs';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { type DocumentNode, getOperationAST, getVariableValues, GraphQLError, type GraphQLSchema } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { App, RequestContext } from '../context.js';
import { DomainError } from '../kernel/errors.js';
import { ClientAborted, clientAbortedResponse, parseJsonBody, readBodyBytes, saysJson } from '../kernel/request-body.js';
import { admitRequest } from './context.js';
import { noteOf } from './request-log.js';
import type { Idempotent } from './idempotency.js';
import { maskError, quietAboutDomainErrors, toGraphQLError } from './graphql-errors.js';
import { checkCost, checkTokens, limitRules, withoutSuggestions } from './graphql-limits.js';
import { useInputCheck } from './input-check-plugin.js';
import { useJitExecution } from './jit-execution.js';
import { renderGraphiQLPage } from './graphiql-assets.js';
import { GRAPHIQL_DEFAULT_QUERY, GRAPHIQL_HEADERS } from './graphiql-defaults.js';
import { assertCredentialsIfNeeded, assertSessionScopes, planGatedFields, sessionOnlyFields } from '../schema/session-field-check.js';

export interface GraphQLServerContext {
  req?: IncomingMessage;
  /** Who is calling: checked before the document is read. */
  requestContext?: RequestContext;
  /** The POST body, read within the caller's size limit and parsed as JSON. */
  body?: unknown;
}

const COUNTED_DOCUMENTS = 1_000;
const COUNTED_DOCUMENT_CHARS = 8_000;

/** Applies the GraphQL limits: the token limit while parsing, the rules while validating, the cost before executing. */
function limitsPlugin(app: App): Plugin<{ requestContext?: RequestContext }> {
  const limits = app.config.graphql;
  const rules = { signedIn: limitRules(limits, true), anonymous: limitRules(limits, false) };
  // Documents already counted: a client repeats its few documents, and counting tokens costs about as much as parsing.
  const counted = new Set<string>();
  return {
    onParams({ params }) {
      if (typeof params.query !== 'string' || counted.has(params.query)) return;
      checkTokens(params.query, limits);
      if (params.query.length > COUNTED_DOCUMENT_CHARS) return;
      if (counted.size >= COUNTED_DOCUMENTS) counted.clear();
      counted.add(params.query);
    },
    onValidate({ context, addValidationRule }) {
      const signedIn = Boolean(context.requestContext?.auth);
      for (const rule of signedIn ? rules.signedIn : rules.anonymous) addValidationRule(rule);
      if (signedIn || limits.anonymousIntrospection) return;
      return ({ result, setResult }) => {
        if (result.length) setResult(result.map((error) => (error instanceof GraphQLError ? withoutSuggestions(error) : error)));
      };
    },
    onExecute({ args }) {
      checkCost(args.schema, limits, args.document, args.variableValues ?? undefined, args.operationName);
    },
    onSubscribe({ args }) {
      checkCost(args.schema, limits, args.document, args.variableValues ?? undefined, args.operationName);
    },
  };
}

/**
 * Refusals that depend on the caller alone, before the variables are coerced (which GraphQL does before
 * any resolver's authScopes run):
 * - a request without credentials that selects a field which needs them is refused as a whole
 *   (MISSING_AUTHORIZATION, 401);
 * - a root field only a signed-in user may call, or one a plan capability gates (forecasting), that the
 *   caller may not call: when the variables coerce, the operation runs and that field alone answers null
 *   with its refusal (its path and code, from its authScopes), its siblings intact; when they do not, the
 *   refusal answers for the whole operation, so that the caller learns nothing about an input it may not
 *   send at all.
 */
function sessionFieldsPlugin(): Plugin<{ requestContext?: RequestContext }> {
  const refusal = (args: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; contextValue: unknown; variableValues?: unknown }) => {
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation) return null;
    const context = args.contextValue as RequestContext;
    try {
      assertCredentialsIfNeeded(context, args.schema, operation, args.document);
      assertSessionScopes(context, sessionOnlyFields(args.schema, operation, args.document));
      assertSessionScopes(context, planGatedFields(args.schema, operation, args.document));
      return null;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const variables = getVariableValues(args.schema, operation.variableDefinitions ?? [], (args.variableValues ?? {}) as Record<string, unknown>);
      if (context.auth && !variables.errors) return null;
      return { data: null, errors: [toGraphQLError(error)] };
    }
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const result = refusal(args);
      if (result) setResultAndStopExecution(result);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const result = refusal(args);
      if (result) setResultAndStopExecution(result);
    },
  };
}

/** Only the documents of a trusted-documents manifest run; signed-in users (analysts in GraphiQL) may still send their own. */
function trustedDocumentsPlugin(path: string, signedInUsers: WeakMap<Request, boolean>): Plugin {
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
  return usePersistedOperations({
    getPersistedOperation: (key) => manifest[key] ?? null,
    allowArbitraryOperations: (request) => signedInUsers.get(request) ?? false,
    customErrors: {
      notFound: { message: 'Persisted document not found', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 400 } } },
      persistedQueryOnly: {
        message: 'Only trusted documents are accepted: send extensions.persistedQuery.sha256Hash (or documentId) of a published document',
        extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
      },
      keyNotFound: { message: 'The persisted document id is missing', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 400 } } },
    },
  }) as Plugin;
}

function errorResponse(request: Request, error: DomainError): Response {
  const accept = request.headers.get('accept') ?? '';
  // The status travels in extensions.http for Yoga, which leaves it out of bodies; so do we.
  const body = toGraphQLError(error).toJSON();
  const { http: _status, ...extensions } = body.extensions ?? {};
  return new Response(JSON.stringify({ errors: [{ ...body, extensions }] }), {
    status: error.status,
    headers: { 'content-type': accept.includes('application/graphql-response+json') ? 'application/graphql-response+json; charset=utf-8' : 'application/json; charset=utf-8' },
  });
}

/**
 * /graphql: graphql-yoga behind the checks that must come before a document is read. Credentials first
 * (bad ones are refused before the body is touched), then the cross-site checks for the session cookie,
 * then the body within a small limit (smaller still without credentials), parsed here so that an invalid
 * body is refused without echoing it. The limits plugin then bounds tokens, depth, aliases, directives
 * and cost.
 */
export function createGraphQLEndpoint(app: App, schema: GraphQLSchema, idempotent: Idempotent) {
  const signedInUsers = new WeakMap<Request, boolean>();
  const { graphql } = app.config;
  const yoga = createYoga<GraphQLServerContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: { title: 'Supply chain GraphQL', subscriptionsProtocol: 'WS', defaultQuery: GRAPHIQL_DEFAULT_QUERY, headers: GRAPHIQL_HEADERS },
    // Served from this server (/graphql/assets/), not a CDN, so that GraphiQL works without internet.
    renderGraphiQL: renderGraphiQLPage,
    landingPage: false,
    // CORS is answered in front of both /graphql and /api (cors.ts), from CORS_ORIGINS.
    cors: false,
    multipart: false,
    // The body was read and bounded in admit(); Yoga's own limit would pipe the already-read stream again.
    maxRequestBodySize: false,
    maskedErrors: { maskError },
    logging: quietAboutDomainErrors(),
    context: ({ requestContext }) => requestContext!,
    plugins: [
      {
        onRequestParse({ serverContext, setRequestParser }) {
          const { body } = serverContext as GraphQLServerContext;
          if (body !== undefined) setRequestParser(() => body as never);
        },
        // Every error of an answer, counted by code (the metrics' scm_graphql_errors_total).
        onResultProcess({ result }) {
          for (const one of Array.isArray(result) ? result : [result]) {
            const errors = (one as { errors?: readonly { extensions?: { code?: unknown } }[] }).errors;
            for (const error of errors ?? []) processMetrics().graphqlError(typeof error.extensions?.code === 'string' ? error.extensions.code : 'UNKNOWN');
          }
        },
        // An unexpected error is logged by Yoga as it masks it (after this hook): that line carries the request's id.
        onExecute({ args }: { args: { contextValue: unknown } }) {
          // Yoga's context is its own (with the request), extended with ours.
          const request = (args.contextValue as { request?: Request }).request;
          const requestId = request ? requestIds.get(request) : undefined;
          if (!requestId) return;
          return {
            onExecuteDone({ result }: { result: object }) {
              if (!('errors' in result) || !Array.isArray(result.errors)) return;
              for (const error of result.errors as object[]) errorRequestIds.set(error, requestId);
            },
          };
        },
        // The request line names the operation (its name as the client sent it; anonymous ones have none).
        onParams({ params, request }) {
          const note = noteOf(request);
          if (note) note.operation = params.operationName ?? undefined;
        },
      },
      useInputCheck(),
      sessionFieldsPlugin(),
      limitsPlugin(app),
      ...(graphql.trustedDocuments ? [trustedDocumentsPlugin(graphql.trustedDocuments, signedInUsers)] : []),
      useJitExecution(graphql.jitAfterRuns),
    ],
  });

  async function admit(request: Request, clientIp: string): Promise<{ requestContext: RequestContext; body?: unknown }> {
    const requestContext = await admitRequest(app, request, clientIp);
    signedInUsers.set(request, requestContext.auth?.actor.type === 'user');
    if (request.method !== 'POST') return { requestContext };
    if (!saysJson(request)) {
      throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send GraphQL requests as Content-Type: application/json');
    }
    const maxBytes = requestContext.auth ? graphql.maxBodyBytes : graphql.anonymousMaxBodyBytes;
    const body = parseJsonBody(new TextDecoder().decode(await readBodyBytes(request, maxBytes)));
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new DomainError('BAD_REQUEST', 'The request body must be a JSON object {query, variables, operationName}');
    }
    return { requestContext, body };
  }

  return {
    yoga,
    async fetch(request: Request, server: GraphQLServerContext, clientIp: string): Promise<Response> {
      // The GraphiQL page itself needs no credentials; the requests it makes do.
      if (request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html')) return yoga.fetch(request, server);
      let admitted: Awaited<ReturnType<typeof admit>>;
      try {
        admitted = await admit(request, clientIp);
      } catch (error) {
        if (error instanceof DomainError) return errorResponse(request, error);
        if (error instanceof ClientAborted) return clientAbortedResponse();
        throw error;
      }
      try {
        // The same Idempotency-Key as REST (POST only): the answer to a mutation is kept and replayed.
        return await idempotent(admitted.requestContext, request, admitted.body, async () => yoga.fetch(request, { ...server, ...admitted }));
      } catch (error) {
        if (error instanceof DomainError) return errorResponse(request, error);
        throw error;
      }
    },
  };
}
