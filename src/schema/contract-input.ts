import type { ArgBuilder, ArgumentRef, InputFieldRef, InputObjectRef, InputTypeParam } from '@pothos/core';
import { z } from 'zod';
import { jsonSchemaOf } from '../contracts/json-schema.js';
import { parseContract } from '../contracts/parse.js';
import { builder } from './builder.js';

type Types = typeof builder.$inferSchemaTypes;
type Json = Record<string, any>;
/** A GraphQL input type: a scalar's name, an enum or input object, or a list of one. */
type GraphqlType = InputTypeParam<Types> | [InputTypeParam<Types>];

export interface ContractInputOptions {
  description: string;
  /**
   * GraphQL types the JSON Schema of the contract cannot tell: an enum, a Decimal, an ID that is text
   * (`reasonCodeId` takes a code too, so it is a String). Keyed by the field's path (`lines.quantity`).
   */
  types?: Record<string, GraphqlType>;
  /** Names of nested input objects by path (`lines` → `InventoryTransferLineInput`); default `<Name without Input><Field>Input`. */
  names?: Record<string, string>;
  /** Descriptions of nested input objects by path. */
  descriptions?: Record<string, string>;
  /**
   * Fields GraphQL leaves optional though the contract requires them (the contract answers their absence
   * with its own words); by path.
   */
  optional?: string[];
  /** Why a field the contract marks `deprecated` is deprecated (GraphQL's deprecationReason), by path. */
  deprecationReasons?: Record<string, string>;
}

const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** The schema without its null branch, and whether null was one. */
function withoutNull(json: Json): { json: Json; nullable: boolean } {
  if (Array.isArray(json.type) && json.type.includes('null')) {
    const types = json.type.filter((t: string) => t !== 'null');
    return { json: { ...json, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  const branches = (json.anyOf ?? json.oneOf) as Json[] | undefined;
  if (branches?.some((b) => b.type === 'null')) {
    const kept = branches.filter((b) => b.type !== 'null');
    const { anyOf: _a, oneOf: _o, ...rest } = json;
    if (kept.length === 1) return { json: { ...rest, ...kept[0], description: rest.description ?? kept[0]!.description }, nullable: true };
    return { json: { ...rest, anyOf: kept }, nullable: true };
  }
  return { json, nullable: false };
}

/**
 * A GraphQL input object generated from a zod contract: the same fields, required where the contract
 * requires them, described by the contract's `.meta({ description })`. The contract stays the one
 * definition; GraphQL's types are what a typed client sees, and the resolver parses the value with the
 * contract (`parseInput`) so the service receives what the contract outputs.
 */
export function contractInput<S extends z.ZodType>(name: string, contract: S, options: ContractInputOptions): InputObjectRef<Types, z.input<S>> {
  return objectInput(name, jsonSchemaOf(contract, "input"), "", options) as unknown as InputObjectRef<Types, z.input<S>>;
}

function objectInput(name: string, json: Json, path: string, options: ContractInputOptions): InputObjectRef<Types, object> {
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set<string>((json.required as string[] | undefined) ?? []);
  if (!Object.keys(properties).length) throw new Error(`${name}: the contract at "${path || '(root)'}" is not an object with fields`);
  const description = path ? (options.descriptions?.[path] ?? json.description) : options.description;
  if (!description) throw new Error(`${name}: give the nested input at "${path}" a description (descriptions option or .meta)`);
  // Nested types are declared before the fields that use them, once per schema.
  const fieldTypes = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => {
      const fieldPath = join(path, key);
      const { json: inner, nullable } = withoutNull(property);
      const described = property.description ?? inner.description;
      if (!described) throw new Error(`${name}.${fieldPath}: the contract gives no description (.meta({ description }))`);
      const isRequired = required.has(key) && !nullable && !options.optional?.includes(fieldPath);
      const deprecationReason = property.deprecated || inner.deprecated ? options.deprecationReasons?.[fieldPath] : undefined;
      if (deprecationReason === undefined && (property.deprecated || inner.deprecated)) throw new Error(`${name}.${fieldPath}: the contract marks it deprecated; give the reason (deprecationReasons option)`);
      return [key, { type: graphqlType(name, inner, fieldPath, options), required: isRequired, description: described, deprecationReason }] as const;
    }),
  );
  return builder.inputRef<object>(path ? (options.names?.[path] ?? nestedName(name, path)) : name).implement({
    description,
    fields: (t) =>
      Object.fromEntries(
        Object.entries(fieldTypes).map(([key, field]) => {
          const list = Array.isArray(field.type);
          const options = {
            type: field.type,
            description: field.description,
            required: list ? { list: field.required, items: true } : field.required,
            ...(field.deprecationReason && { deprecationReason: field.deprecationReason }),
          };
          return [key, t.field(options as never) as InputFieldRef<Types, unknown>];
        }),
      ),
  });
}

function nestedName(name: string, path: string) {
  const base = name.endsWith('Input') ? name.slice(0, -'Input'.length) : name;
  return `${base}${path.split('.').map(capital).join('')}Input`;
}

function graphqlType(name: string, json: Json, path: string, options: ContractInputOptions): GraphqlType {
  const given = options.types?.[path];
  if (given) return given;
  if (json.type === 'array') {
    const item = graphqlType(name, withoutNull(json.items ?? {}).json, path, { ...options, types: { ...options.types, [path]: undefined as never } });
    if (Array.isArray(item)) throw new Error(`${name}.${path}: lists of lists are not inputs here`);
    return [item];
  }
  if (json.type === 'object' && json.properties) return objectInput(name, json, path, options);
  if (json.format === 'date') return 'Date';
  if (json.format === 'date-time') return 'DateTime';
  if (json.enum) throw new Error(`${name}.${path}: an enum needs its GraphQL enum type (types option)`);
  switch (json.type) {
    case 'string':
      return path.endsWith('Id') || path === 'id' || path.endsWith('.id') ? 'ID' : 'String';
    case 'integer':
      return 'Int';
    case 'number':
      return 'Float';
    case 'boolean':
      return 'Boolean';
    default:
      throw new Error(`${name}.${path}: no GraphQL type for ${JSON.stringify(json).slice(0, 120)} (types option)`);
  }
}

export interface ContractArgsOptions extends Omit<ContractInputOptions, 'description'> {
  /** Which side of the contract the arguments take: `output` for a query-string contract (text made into numbers). */
  io?: 'input' | 'output';
  /** Parameters of the contract that are not arguments of this field (paging the field declares itself). */
  omit?: string[];
  /** Descriptions for fields the contract leaves undescribed, or words for GraphQL callers instead of the contract's. */
  fieldDescriptions?: Record<string, string>;
}

/**
 * A field's arguments generated from a contract (a query's filters): one argument per contract field, with its
 * type, requiredness and description. The resolver parses the arguments with the same contract.
 */
export function contractArgs(t: { arg: ArgBuilder<Types> }, contract: z.ZodObject, options: ContractArgsOptions = {}): Record<string, ArgumentRef<Types, unknown>> {
  const json = jsonSchemaOf(contract, options.io ?? 'input') as Json;
  // A parameter with a default is in the output's `required`: ask the contract whether absence passes.
  const shape = contract.shape as Record<string, z.ZodType>;
  const entries = Object.entries((json.properties ?? {}) as Record<string, Json>).filter(([key]) => !options.omit?.includes(key));
  return Object.fromEntries(
    entries.map(([key, property]) => {
      const { json: inner, nullable } = withoutNull(property);
      const description = options.fieldDescriptions?.[key] ?? property.description ?? inner.description;
      if (!description) throw new Error(`argument ${key}: the contract gives no description (.meta({ description }) or fieldDescriptions)`);
      const type = graphqlType('arguments', inner, key, { description: '', ...options });
      const isRequired = !shape[key]?.safeParse(undefined).success && !nullable && !options.optional?.includes(key);
      const list = Array.isArray(type);
      return [key, t.arg({ type, description, required: list ? { list: isRequired, items: true } : isRequired } as never) as ArgumentRef<Types, unknown>];
    }),
  );
}

/** The value of a contract-driven input as the contract outputs it: the one parse on the way to a service. */
export const parseInput = <S extends z.ZodType>(contract: S, value: unknown, prefix = ''): z.output<S> => parseContract(contract, value, prefix);
