import SchemaBuilder, {
  BasePlugin,
  type FieldNullability,
  type InputFieldMap,
  type PothosOutputFieldConfig,
  type SchemaTypes,
  type TypeParam,
} from '@pothos/core';
import { REFUSAL_KINDS, type RefusalTypeName } from './refusal-kinds.js';

/**
 * Gives each mutation the typed refusals of @pothos/plugin-errors that it declares in `refusals`: its
 * type becomes a union of the object it returns and exactly those refusal types (ValidationError,
 * NotFoundError, …), so that a client learns from the schema what it must handle. A mutation declaring
 * `refusals: []` returns its type plainly. Every mutation must declare them: the schema is not built
 * otherwise, so that a new mutation cannot forget. A refusal a mutation did not declare is not wrapped:
 * it comes in the top-level `errors` with its `extensions.code` (test/<area>/mutation-refusals.test.ts
 * provokes each declared one, which keeps the declarations honest).
 * Listed after the errors plugin, whose field hook runs after this one.
 */
export class MutationRefusalsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (fieldConfig.kind !== 'Mutation') return fieldConfig;
    const options = fieldConfig.pothosOptions as { errors?: unknown; refusals?: readonly RefusalTypeName[] };
    const { refusals } = options;
    if (!Array.isArray(refusals)) {
      throw new Error(`Mutation.${fieldConfig.name} declares no \`refusals\`: list the refusal types it can answer (or [] for none).`);
    }
    if (options.errors) throw new Error(`Mutation.${fieldConfig.name}: declare its refusals with \`refusals\`, not \`errors\`.`);
    const unknown = refusals.filter((name) => !Object.hasOwn(REFUSAL_KINDS, name as string));
    if (unknown.length) throw new Error(`Mutation.${fieldConfig.name} declares unknown refusals: ${unknown.join(', ')}.`);
    if (!refusals.length) return fieldConfig;
    if (fieldConfig.type.kind !== 'Object') throw new Error(`Mutation.${fieldConfig.name} declares refusals but does not return an object type.`);
    const errors = {
      types: [...new Set(refusals)].sort().map((name) => REFUSAL_KINDS[name as RefusalTypeName]),
      union: {
        description: `What ${fieldConfig.name} answers: its result, or the refusal (a MutationError) when it refused the input; nothing was written then.`,
      },
    };
    return { ...fieldConfig, pothosOptions: { ...fieldConfig.pothosOptions, errors } as typeof fieldConfig.pothosOptions };
  }
}

export const mutationRefusalsPlugin = 'mutationRefusals';

SchemaBuilder.registerPlugin(mutationRefusalsPlugin, MutationRefusalsPlugin);

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      mutationRefusals: MutationRefusalsPlugin<Types>;
    }
    export interface MutationFieldOptions<Types extends SchemaTypes, Type extends TypeParam<Types>, Nullable extends FieldNullability<Type>, Args extends InputFieldMap, ResolveReturnShape> {
      /**
       * The refusal types this mutation can answer with (each a MutationError in its result union);
       * [] when it refuses nothing typed. Required: src/schema/mutation-refusals-plugin.ts.
       */
      refusals: readonly RefusalTypeName[];
    }
  }
}
