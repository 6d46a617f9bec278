import { coerceInputValue, type GraphQLSchema, isInputType, type OperationDefinitionNode, typeFromAST, type GraphQLInputType } from 'graphql';
import { newFieldErrors, validationError } from '../src/kernel/errors.js';

/**
 * Checks a route's variables against the operation's declared types (after execution refused them), and turns
 * each problem into `details[field]`, the documented validation body (GraphQL itself only gives text).
 */
export function coerceVariables(schema: GraphQLSchema, operation: OperationDefinitionNode, raw: Record<string, unknown>) {
  const details = newFieldErrors();
  const values: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    if (!type || !isInputType(type)) throw new Error(`variable $${name} has no input type`);
    const value = raw[name];
    if (value === undefined && type.toString().endsWith('!') === false) continue;
    // Only checked here: execute coerces again, and scalars such as DateTime do not accept their own output.
    values[name] = value === undefined ? null : value;
    coerceInputValue(values[name], type, (path, _invalid, error) => {
      let field = path.join('.') || name;
      let message = error.message;
      const missing = message.match(/^Field "(\w+)" of required type ".+" was not provided\.$/);
      const unknown = message.match(/^Field "(\w+)" is not defined by type/);
      if (missing) {
        field = path.length ? `${path.join('.')}.${missing[1]}` : missing[1]!;
        message = 'Required';
      } else if (unknown) {
        field = path.length ? `${path.join('.')}.${unknown[1]}` : unknown[1]!;
        message = 'Unknown field';
      } else if (value === null || value === undefined) {
        message = 'Required';
      }
      (details[field] ??= []).push(message);
    });
  }
  if (Object.keys(details).length) throw validationError(details);
  return values;
}
