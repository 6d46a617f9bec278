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
  Kind,
  type SelectionSetNode,
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
 * What __schema and __type cost, whatever they select: the schema is the same for every caller and
 * small next to a page of data, and estimating its lists as pages (about 53,000 for GraphiQL's query)
 * would refuse introspection. Its shape is bounded instead (introspectionShape).
 */
export const INTROSPECTION_COST = { __schema: 1_000, __type: 50 } as const;

/**
 * One unit per field, times the size of the list it returns: nested pages multiply. A field that fits
 * forecasts adds the engine work it may start (schema/engine-cost.ts), so aliased copies add up.
 */
function estimate({ field, args, childComplexity }: ComplexityEstimatorArgs): number {
  if (field.name === '__schema' || field.name === '__type') return INTROSPECTION_COST[field.name];
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
  else rules.push(introspectionShape);
  return rules;
}

/** Lists of a __Type: only on a type listed by __schema.types or named by __type, not on a type reference. */
const TYPE_LISTS = new Set(['fields', 'inputFields', 'enumValues', 'interfaces', 'possibleTypes']);
/** Fields that refer to another type: below them a type is named, not listed out. */
const REFERENCES = new Set(['type', 'ofType', 'interfaces', 'possibleTypes']);
/** Nested lists inside introspection: __schema { types { fields { args } } } is the deepest a standard query goes. */
const INTROSPECTION_LIST_NESTING = 3;

/**
 * Introspection has a flat cost, so its shape is bounded instead: a type a field, argument or type refers to
 * (`type`, `ofType`, `interfaces`, `possibleTypes`) may be named but not have its fields listed again (which would multiply the whole schema by
 * itself at each level), and lists nest at most three deep. getIntrospectionQuery() with any of its
 * options and GraphiQL's query fit. Every other rule (depth excepted) still applies.
 */
const introspectionShape: ValidationRule = (context) => ({
  OperationDefinition(operation) {
    const refuse = (field: string) =>
      context.reportError(
        limitError('MAX_DEPTH_EXCEEDED', `Introspection may not select ${field} here: list a type's fields from __schema.types or __type(name:), and only name the types they refer to`, { field }),
      );
    const walk = (selections: SelectionSetNode, lists: number, reference: boolean, seen: Set<string>) => {
      for (const selection of selections.selections) {
        if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet, lists, reference, seen);
        else if (selection.kind === Kind.FRAGMENT_SPREAD) {
          const fragment = context.getFragment(selection.name.value);
          if (fragment && !seen.has(fragment.name.value)) walk(fragment.selectionSet, lists, reference, new Set(seen).add(fragment.name.value));
        } else if (selection.selectionSet) {
          const name = selection.name.value;
          const list = name === 'types' || name === 'directives' || name === 'args' || TYPE_LISTS.has(name);
          if ((reference && TYPE_LISTS.has(name)) || (list && lists + 1 > INTROSPECTION_LIST_NESTING)) return refuse(name);
          walk(selection.selectionSet, lists + (list ? 1 : 0), reference || REFERENCES.has(name), seen);
        }
      }
    };
    for (const selection of operation.selectionSet.selections) {
      // Introspection fields are only on the root of a query; fragments at the root are followed too.
      const roots = selection.kind === Kind.FIELD ? [selection] : [];
      if (selection.kind !== Kind.FIELD) {
        const set = selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : context.getFragment(selection.name.value)?.selectionSet;
        for (const inner of set?.selections ?? []) if (inner.kind === Kind.FIELD) roots.push(inner);
      }
      for (const field of roots) {
        if ((field.name.value === '__schema' || field.name.value === '__type') && field.selectionSet) walk(field.selectionSet, 0, false, new Set());
      }
    }
  },
});

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
