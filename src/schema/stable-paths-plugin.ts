import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver, GraphQLResolveInfo } from 'graphql';

type Path = GraphQLResolveInfo['path'];

/** One place in a response, the same object for every resolver that runs at or beneath it in one request. */
interface StablePath {
  readonly prev: StablePath | undefined;
  readonly key: string | number;
  readonly typename: undefined;
  /** The places directly beneath, by response key or list index. */
  children?: Map<string | number, StablePath>;
}

const roots = new WeakMap<object, Map<string | number, StablePath>>();

function stable(top: Map<string | number, StablePath>, path: Path): StablePath {
  const prev = path.prev ? stable(top, path.prev) : undefined;
  const siblings = prev ? (prev.children ??= new Map()) : top;
  let place = siblings.get(path.key);
  if (!place) siblings.set(path.key, (place = { prev, key: path.key, typename: undefined }));
  return place;
}

/** Is this output field's value an object or a list of them (not a scalar or an enum)? */
function composite(type: PothosOutputFieldConfig<SchemaTypes>['type']): boolean {
  const named = type.kind === 'List' ? type.type : type;
  return named.kind !== 'Scalar' && named.kind !== 'Enum';
}

/**
 * A resolver that declares fewer than four parameters (parent, args, context, but no info) never sees the path, so
 * it neither records nor looks up a mapping: a connection's `edges`, an edge's `node`, an exposed object field. The
 * plugins that read paths wrap with four parameters, so a field they wrapped still counts as reading it. Length 0
 * is a rest parameter (`(...args) => …`), which may pass info on: wrapped.
 */
const blindToInfo = (resolver: (...args: never[]) => unknown) => resolver.length > 0 && resolver.length < 4;

/**
 * The Prisma plugin knows which relations a list's query already loaded by the identity of graphql-js's
 * response path objects (the path of the list field, the ancestors of a nested relation's path), kept per
 * request. graphql-js builds each place's path object once and shares it with everything beneath it;
 * graphql-jit (the REST adapter, and /graphql from a document's second run) writes a new path literal per
 * resolver call, so without this every nested relation is read again by the plugin's fallback loaders.
 * Here a jit path (it has no `typename`) is swapped for the request's one object per place before any
 * plugin reads it. Only resolvers that can record or look up a mapping are wrapped: fields returning
 * objects whose resolver can see the path, and fields the Prisma plugin selects for (relations, counts).
 * Goes first among the plugins, so its wrapper is the outermost.
 */
export class StablePathsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    const selects = Boolean((fieldConfig.extensions as { pothosPrismaSelect?: unknown } | undefined)?.pothosPrismaSelect);
    if (!selects && !composite(fieldConfig.type as PothosOutputFieldConfig<SchemaTypes>['type'])) return resolver;
    if (!selects && blindToInfo(resolver)) return resolver;
    return (parent, args, context, info) => {
      if (!('typename' in info.path)) {
        let top = roots.get(context as object);
        if (!top) roots.set(context as object, (top = new Map()));
        (info as { path: Path }).path = stable(top, info.path) as Path;
      }
      return resolver(parent, args, context, info);
    };
  }
}

export const stablePathsPlugin = 'stablePaths';

SchemaBuilder.registerPlugin(stablePathsPlugin, StablePathsPlugin);

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      stablePaths: StablePathsPlugin<Types>;
    }
  }
}
