import { type ASTNode, type ASTVisitor, GraphQLError, Kind, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DomainError } from '../kernel/errors.js';
import { toGraphQLError } from './graphql-errors.js';
import { hasNul, inputProblems, NUL_MESSAGE } from '../input-text.js';

/**
 * Yoga answers an error with this extension with that HTTP status (and leaves the extension out of the
 * body); `spec: false` keeps the 400 for a validation error, which Yoga otherwise answers 200 to
 * application/json clients.
 */
const badRequest = { http: { status: 400, spec: false } };

/** String literals of the document holding a NUL, named by their argument and input-object fields (`input.sku`). */
export function nulInStringLiterals(context: ValidationContext): ASTVisitor {
  return {
    StringValue(node, _key, parent, _path, ancestors) {
      if (!hasNul(node.value)) return;
      const names = ([...ancestors, parent] as (ASTNode | readonly ASTNode[] | undefined)[]).flatMap((a) =>
        a &&
        'kind' in a && (a.kind === Kind.ARGUMENT || a.kind === Kind.OBJECT_FIELD) ? [a.name.value] : [],
      );
      const field = names.join('.') || '_';
      context.reportError(
        new GraphQLError(`Invalid input: ${field}: ${NUL_MESSAGE}`, {
          nodes: [node],
          extensions: { code: 'VALIDATION_ERROR', details: { [field]: [NUL_MESSAGE] }, ...badRequest },
        }),
      );
    },
  };
}

/**
 * /graphql's side of the input check the REST adapter makes (src/input-text.ts): variables (named by the
 * variable and its fields, `input.lines.0.lotCode`) are checked before the operation is parsed, string
 * literals of the document when it is validated. Either answers 400 VALIDATION_ERROR with the fields.
 */
export function useInputCheck(): Plugin {
  return {
    onParams({ params, setResult }) {
      const details = inputProblems(params.variables ?? {});
      if (!Object.keys(details).length) return;
      setResult({ errors: [toGraphQLError(new DomainError('VALIDATION_ERROR', 'Invalid input', { details }), undefined, badRequest)] });
    },
    onValidate({ addValidationRule }) {
      addValidationRule(nulInStringLiterals);
    },
  };
}
