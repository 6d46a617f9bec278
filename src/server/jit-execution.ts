import { type DocumentNode, type ExecutionResult, GraphQLError, type Source } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { processMetrics } from '../kernel/metrics.js';

/** A document's operations: how often each ran, then its compiled form (or null: it does not compile). */
type Runs = Map<string, number | CompiledQuery | null>;

/**
 * A copy of the document's nodes for one compilation: graphql-jit marks the field nodes it compiles with
 * the @skip/@include conditions above them, so two operations of one document (sharing fragments) must
 * not share nodes. The locations stay shared (errors point into the client's text).
 */
function copyNodes<T>(node: T): T {
  if (Array.isArray(node)) return node.map(copyNodes) as T;
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = key === 'loc' ? value : copyNodes(value);
  return copy as T;
}

/** Where each line of the text starts, as graphql-js counts lines. */
function lineStarts(body: string): number[] {
  const starts = [0];
  for (const match of body.matchAll(/\r\n|[\n\r]/g)) starts.push(match.index + match[0].length);
  return starts;
}

/**
 * graphql-jit's errors are GraphQLErrors by prototype only (no extensions unless the cause had some, their
 * locations as line and column only): error masking and the answer expect graphql-js's, which locate an
 * error by its source and offsets. Made the same way, they answer the same locations.
 */
function asGraphQLErrors(errors: readonly GraphQLError[], source: Source | undefined): GraphQLError[] {
  const starts = source ? lineStarts(source.body) : [];
  return errors.map((error) => {
    const positions = source ? error.locations?.map(({ line, column }) => (starts[line - 1] ?? 0) + column - 1) : undefined;
    return new GraphQLError(error.message, { source: positions?.length ? source : undefined, positions, path: error.path, originalError: error.originalError, extensions: error.extensions });
  });
}

/**
 * Queries and mutations a client sends again run through graphql-jit, as the REST adapter's do: graphql-yoga
 * keeps the parsed document of a query it has seen (so the same object comes back), and the compiled
 * operation is kept beside it. The resolvers, the plugins around execution and the answer are the same;
 * only graphql-js's walk of the document per field and per item is gone. A request error (variables the
 * compiled operation cannot coerce, before any resolver ran) is answered by graphql-js, so that a client
 * reads the same words whether or not its document has been compiled yet. Subscriptions stay with graphql-js.
 * A document runs `runsBeforeCompiling` times through graphql-js first (GRAPHQL_JIT_AFTER_RUNS, 1 by default,
 * docs/graphql.md): most documents an analyst writes in GraphiQL run once, and compiling one costs more than
 * running it. Off (Infinity), the plugin only counts executions.
 * Goes last among the plugins: the ones before it may still answer without executing.
 */
export function useJitExecution(runsBeforeCompiling: number): Plugin {
  const metrics = processMetrics();
  if (!Number.isFinite(runsBeforeCompiling)) return { onExecute: () => metrics.graphqlExecution('graphql-js') };
  const documents = new WeakMap<DocumentNode, Runs>();
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      let runs = documents.get(args.document);
      if (!runs) documents.set(args.document, (runs = new Map()));
      const key = args.operationName ?? '';
      let known = runs.get(key);
      if (known === undefined || typeof known === 'number') {
        const count = (known ?? 0) + 1;
        if (count <= runsBeforeCompiling) {
          runs.set(key, count);
          return metrics.graphqlExecution('graphql-js');
        }
        const compiled = compileQuery(args.schema, copyNodes(args.document), args.operationName ?? undefined);
        runs.set(key, (known = isCompiledQuery(compiled) ? compiled : null));
      }
      const compiled = known;
      if (!compiled) return metrics.graphqlExecution('graphql-js');
      setExecuteFn(((executeArgs: typeof args) => {
        const settle = (result: ExecutionResult) => {
          const requestError = Boolean(result.errors?.length) && result.data === undefined;
          metrics.graphqlExecution(requestError ? 'graphql-js' : 'jit');
          if (requestError) return executeFn(executeArgs);
          return result.errors?.length ? { ...result, errors: asGraphQLErrors(result.errors, executeArgs.document.loc?.source) } : result;
        };
        const result = compiled.query(executeArgs.rootValue, executeArgs.contextValue, executeArgs.variableValues ?? {});
        return result instanceof Promise ? result.then(settle) : settle(result);
      }) as typeof executeFn);
    },
  };
}
