import { type ASTNode, type ASTVisitor, GraphQLError, Kind, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DomainError } from '../kernel/errors.js';
import { badRequest, toGraphQLError, withRequestErrorCode } from './graphql-errors.js';
import { inputProblems } from '../input-text.js';
import { textProblem } from '../kernel/text-rule.js';
import { assertConnectionArguments } from '../schema/connection-arguments.js';

/**
 * String literals of the document the text rule refuses (a NUL; GraphQL's own lexer already refuses a
 * lone surrogate as a syntax error), named by their argument and input-object fields (`input.sku`).
 */
export function badTextInStringLiterals(context: ValidationContext): ASTVisitor {
  return {
    StringValue(node, _key, parent, _path, ancestors) {
      const problem = textProblem(node.value);
      if (!problem) return;
      const names = ([...ancestors, parent] as (ASTNode | readonly ASTNode[] | undefined)[]).flatMap((a) =>
        a &&
        'kind' in a && (a.kind === Kind.ARGUMENT || a.kind === Kind.OBJECT_FIELD) ? [a.name.value] : [],
      );
      const field = names.join('.') || '_';
      context.reportError(
        new GraphQLError(`Invalid input: ${field}: ${problem}`, {
          nodes: [node],
          extensions: { code: 'VALIDATION_ERROR', details: { [field]: [problem] }, ...badRequest },
        }),
      );
    },
  };
}

/**
 * /graphql's side of the input check the REST adapter makes (src/input-text.ts): variables (named by the
 * variable and its fields, `input.lines.0.lotCode`) are checked before the operation is parsed, string
 * literals of the document when it is validated, a connection's paging arguments (its cursors) before
 * it executes. Each answers 400 VALIDATION_ERROR with the fields, and so do variables GraphQL cannot coerce.
 */
export function useInputCheck(): Plugin {
  return {
    onParams({ params, setResult }) {
      const details = inputProblems(params.variables ?? {});
      if (!Object.keys(details).length) return;
      setResult({ errors: [toGraphQLError(new DomainError('VALIDATION_ERROR', 'Invalid input', { details }), undefined, badRequest)] });
    },
    onValidate({ addValidationRule }) {
      addValidationRule(badTextInStringLiterals);
    },
    onExecute({ args }) {
      try {
        assertConnectionArguments(args.schema, args.document, args.variableValues ?? undefined);
      } catch (error) {
        throw error instanceof DomainError ? toGraphQLError(error, undefined, badRequest) : error;
      }
      // What GraphQL itself refuses of the variables (their types) gets a code.
      return {
        onExecuteDone({ result, setResult }) {
          if ('errors' in result && result.errors?.length) setResult({ ...result, errors: result.errors.map(withRequestErrorCode) });
        },
      };
    },
  };
}
