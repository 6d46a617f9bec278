import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  type DocumentNode,
  getNamedType,
  getNullableType,
  GraphQLError,
  type GraphQLField,
  type GraphQLSchema,
  isListType,
  Lexer,
  NoSchemaIntrospectionCustomRule,
  Source,
  TokenKind,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { type ComplexityEstimatorArgs, getComplexity } from 'graphql-query-complexity';
import type { GraphQLLimits } from '../config.js';
import type { ErrorCode } from '../kernel/errors.js';
import { engineCostOf } from '../schema/engine-cost.js';

/** A list field's size when the query does not say: the Prisma plugin's default connection page is 20, its cap 100. */
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;
/** A list without paging arguments (a stock line's lots, a product's levels): assumed this long. */
const UNPAGED_LIST = 10;

// A refusal is 400 whatever the Accept header (graphql-yoga would answer spec-style validation errors with 200 for application/json).
const limitError = (code: ErrorCode, message: string, extra: Record<string, unknown>) =>
  new GraphQLError(message, { extensions: { code, ...extra, http: { status: 400, spec: false } } });

/** How many items a field returns at most, from its paging arguments or its type. */
function listSize(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>): number {
  const page = [args.first, args.last].find((value): value is number => typeof value === 'number');
  if (page !== undefined) return Math.max(0, Math.min(page, MAX_PAGE));
  if (typeof args.limit === 'number') return Math.max(0, args.limit);
  if (field.args.some((a) => a.name === 'first' || a.name === 'last')) return DEFAULT_PAGE;
  const limitArg = field.args.find((a) => a.name === 'limit');
  if (limitArg) return typeof limitArg.defaultValue === 'number' ? limitArg.defaultValue : DEFAULT_PAGE;
  // A connection's edges and nodes are the page already counted on the connection field.
  if (field.name === 'edges' || field.name === 'nodes') return 1;
  return isListType(getNullableType(field.type)) ? UNPAGED_LIST : 1;
}

/**
 * One unit per field, times the size of the list it returns: nested pages multiply. A field that fits
 * forecasts adds the engine work it may start (schema/engine-cost.ts), so aliased copies add up.
 */
function estimate({ field, args, childComplexity }: ComplexityEstimatorArgs): number {
  const connection = getNamedType(field.type).name.endsWith('Connection');
  const size = listSize(field, args);
  const result = connection || isListType(getNullableType(field.type)) ? size * (1 + childComplexity) : 1 + childComplexity;
  return result + engineCostOf(field, args);
}

// Costs of recent documents by operation and variables. graphql-yoga reuses the parsed document of a
// query it has seen, so a client's repeated request finds its cost here instead of walking the document
// again (about 60 µs for a products page); a few variable sets per document are kept.
const costs = new WeakMap<DocumentNode, Map<string, number>>();
const COSTS_PER_DOCUMENT = 64;

function costOf(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>, operationName?: string): number {
  let known = costs.get(document);
  if (!known) costs.set(document, (known = new Map()));
  const key = `${operationName ?? ''}\u0000${JSON.stringify(variables)}`;
  let cost = known.get(key);
  if (cost === undefined) {
    cost = getComplexity({ schema, query: document, variables, operationName, estimators: [estimate] });
    if (known.size >= COSTS_PER_DOCUMENT) known.clear();
    known.set(key, cost);
  }
  return cost;
}

/** The estimated cost of the operation that will run; throws the documented 400 when it is over the budget. */
export function checkCost(schema: GraphQLSchema, limits: GraphQLLimits, document: DocumentNode, variables?: Record<string, unknown>, operationName?: string | null) {
  let cost: number;
  try {
    cost = costOf(schema, document, variables ?? {}, operationName ?? undefined);
  } catch {
    // Bad variables or an unknown operation: execution reports them in its own words.
    return;
  }
  if (cost > limits.maxCost) {
    throw limitError('MAX_COST_EXCEEDED', `Query cost ${cost} is over the limit of ${limits.maxCost}: ask for smaller pages (first, limit) or fewer nested lists`, {
      cost,
      maxCost: limits.maxCost,
    });
  }
}

/** Reports an armor rule's refusal with our code (its own error has none). */
function coded(code: ErrorCode, rule: (options: never) => ValidationRule, options: Record<string, unknown>): ValidationRule {
  return (context: ValidationContext) =>
    rule({
      ...options,
      exposeLimits: true,
      propagateOnRejection: false,
      onReject: [(ctx: ValidationContext | null, error: GraphQLError) => (ctx ?? context).reportError(limitError(code, error.message.replace(/^Syntax Error: /, ''), { limit: options.n }))],
    } as never)(context);
}

/** Validation rules for the limits; without credentials, also no introspection (unless allowed). */
export function limitRules(limits: GraphQLLimits, authenticated: boolean): ValidationRule[] {
  const rules = [
    coded('MAX_DEPTH_EXCEEDED', maxDepthRule as never, { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true }),
    coded('MAX_ALIASES_EXCEEDED', maxAliasesRule as never, { n: limits.maxAliases }),
    coded('MAX_DIRECTIVES_EXCEEDED', maxDirectivesRule as never, { n: limits.maxDirectives }),
  ];
  if (!authenticated && !limits.anonymousIntrospection) rules.push(introspectionForbidden);
  return rules;
}

const introspectionForbidden: ValidationRule = (context) => {
  // graphql-js' rule, reporting with our code: the same context, but its reportError replaced.
  const coding = Object.create(context) as ValidationContext;
  coding.reportError = () =>
    context.reportError(limitError('INTROSPECTION_DISABLED', 'Introspection needs credentials: send Authorization: Bearer <API key or token>', {}));
  return NoSchemaIntrospectionCustomRule(coding);
};

/**
 * Refuses a document with more tokens than the limit, counting them with the lexer alone (no tree is
 * built), before it is parsed.
 */
export function checkTokens(source: string, limits: GraphQLLimits): void {
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) {
      if (++tokens > limits.maxTokens) {
        throw limitError('MAX_TOKENS_EXCEEDED', `The document has more than ${limits.maxTokens} tokens`, { limit: limits.maxTokens });
      }
    }
  } catch (error) {
    // A syntax error is the parser's to report, in its words.
    if (error instanceof GraphQLError && error.extensions.code === 'MAX_TOKENS_EXCEEDED') throw error;
  }
}

/** Field suggestions ("Did you mean …?") name fields a caller did not ask for: only for callers with credentials. */
export function withoutSuggestions(error: GraphQLError): GraphQLError {
  if (!/Did you mean/.test(error.message)) return error;
  return new GraphQLError(error.message.replace(/ ?Did you mean .*$/, ''), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}
