import SchemaBuilder, {
  BasePlugin,
  type FieldNullability,
  type InputFieldMap,
  type PothosOutputFieldConfig,
  type SchemaTypes,
  type TypeParam,
} from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import { DomainError } from '../kernel/errors.js';

type ScopeMap = Record<string, unknown>;

/** Does the map name a scope that refuses some authenticated callers (a permission, a plan capability, a session)? */
export function refusesSomeCallers(map: unknown): boolean {
  if (!map || typeof map !== 'object') return false;
  return Object.entries(map as ScopeMap).some(([name, value]) =>
    name === '$all' || name === '$any' ? refusesSomeCallers(value) : name === 'permission' || name === 'capability' || name === 'session',
  );
}

// What each lookup answered null for, by request context and response key: the REST adapter answers the
// documented 404 with it (its message names the record, as the service wrote it).
const absences = new WeakMap<object, Map<string, DomainError>>();

/** The NOT_FOUND a lookup of this request answered null for, under this response key (alias or field name). */
export function absenceOf(context: object, responseKey: string): DomainError | undefined {
  return absences.get(context)?.get(responseKey);
}

/**
 * Field errors, not operation errors (docs/graphql.md, "Errors"):
 * - a root Query field that some authenticated callers may not read (a permission, a plan capability, a
 *   signed-in session) is nullable, so that its refusal nulls that field alone and its siblings stay;
 * - a Query field with `orNullWhenAbsent` (a lookup by id) answers null where its service throws
 *   NOT_FOUND (an unknown or another organization's id); the services keep throwing it for REST.
 */
export class FieldErrorsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (fieldConfig.kind !== 'Query') return fieldConfig;
    const options = fieldConfig.pothosOptions as { authScopes?: unknown; orNullWhenAbsent?: boolean };
    if (!options.orNullWhenAbsent && !refusesSomeCallers(options.authScopes)) return fieldConfig;
    return { ...fieldConfig, type: { ...fieldConfig.type, nullable: true } };
  }

  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    const options = fieldConfig.pothosOptions as { orNullWhenAbsent?: boolean };
    if (fieldConfig.kind !== 'Query' || !options.orNullWhenAbsent) return resolver;
    return async (parent, args, context, info) => {
      try {
        return await resolver(parent, args, context, info);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'NOT_FOUND') throw error;
        const byKey = absences.get(context as object) ?? new Map<string, DomainError>();
        absences.set(context as object, byKey.set(String(info.path.key), error));
        return null;
      }
    };
  }
}

export const fieldErrorsPlugin = 'fieldErrors';

SchemaBuilder.registerPlugin(fieldErrorsPlugin, FieldErrorsPlugin);

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      fieldErrors: FieldErrorsPlugin<Types>;
    }
    export interface QueryFieldOptions<
      Types extends SchemaTypes,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveReturnShape,
    > {
      /** A lookup by id: null (not a NOT_FOUND error) for an unknown or another organization's id. The field is nullable. */
      orNullWhenAbsent?: boolean;
    }
  }
}
