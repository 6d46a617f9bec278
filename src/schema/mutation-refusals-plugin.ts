import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import { REFUSAL_KINDS } from './refusal-kinds.js';

/**
 * Gives every mutation that returns an object the typed refusals of @pothos/plugin-errors: its type
 * becomes a union of that object and the refusal types (ValidationError, NotFoundError, …), so that a
 * new mutation cannot forget them. Listed after the errors plugin, whose field hook runs after this one.
 */
export class MutationRefusalsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    const options = fieldConfig.pothosOptions as { errors?: unknown };
    if (fieldConfig.kind !== 'Mutation' || fieldConfig.type.kind !== 'Object' || options.errors) return fieldConfig;
    const errors = {
      types: Object.values(REFUSAL_KINDS),
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
  }
}
