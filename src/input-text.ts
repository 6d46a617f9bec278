import { type FieldErrors, newFieldErrors, validationError } from './kernel/errors.js';
import { printable, textProblem } from './kernel/text-rule.js';

/**
 * The checks every request's input passes at the door (REST: path, query and body; GraphQL: variables
 * and string literals; graphql-ws: variables), before any field is read: every text, value or key,
 * obeys the text rule (src/kernel/text-rule.ts: well-formed Unicode, no NUL), and input nested deeper
 * than any operation takes is refused before recursive code (GraphQL coercion, JSON.stringify) runs out
 * of stack on it.
 */
export const MAX_INPUT_DEPTH = 32;

export const DEPTH_MESSAGE = `Nested more than ${MAX_INPUT_DEPTH} levels deep`;

/**
 * Problems of one input value, keyed by the caller's own field path (`lines.0.lotCode`, `0.sku`, or
 * `prefix` itself for a bare string); empty when there is none. Iterative, so no input depth can
 * overflow the stack here; at most one message per field.
 */
export function inputProblems(value: unknown, prefix = ''): FieldErrors {
  const details = newFieldErrors();
  // A value's path is spelled only when it has a problem: spelling every path of a 100,000-row import
  // body costs more than checking it.
  interface Place {
    parent: Place | null;
    key: string;
  }
  const root: Place = { parent: null, key: prefix };
  const pathOf = (place: Place) => {
    const keys: string[] = [];
    for (let p: Place | null = place; p; p = p.parent) if (p.key) keys.push(p.key);
    return keys.reverse().join('.');
  };
  const stack: { value: unknown; place: Place; depth: number }[] = [{ value, place: root, depth: 0 }];
  // A child text is checked at once, a child object or list queued; numbers, booleans and nulls have nothing to check.
  const visit = (item: unknown, parent: Place, key: string, depth: number) => {
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) details[pathOf({ parent, key })] ??= [problem];
    } else if (item && typeof item === 'object') stack.push({ value: item, place: { parent, key }, depth: depth + 1 });
  };
  while (stack.length) {
    const { value: v, place, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) details[pathOf(place) || '_'] ??= [problem];
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) {
      details[pathOf(place) || '_'] ??= [DEPTH_MESSAGE];
      continue;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) visit(v[i], place, String(i), depth);
      continue;
    }
    for (const key of Object.keys(v)) {
      const problem = textProblem(key);
      // The key is named with what the rule refuses spelled as escapes, which keeps it readable.
      if (problem) details[pathOf({ parent: place, key: printable(key) })] ??= [problem];
      else visit((v as Record<string, unknown>)[key], place, key, depth);
    }
  }
  return details;
}

/**
 * Throws VALIDATION_ERROR (400) naming the fields at fault when any of these inputs, each given with the
 * path prefix its fields are named by ('' for a body whose fields are named alone), has a problem.
 */
export function assertCleanInput(inputs: [prefix: string, value: unknown][]): void {
  const details = newFieldErrors();
  for (const [prefix, value] of inputs) Object.assign(details, inputProblems(value, prefix));
  if (Object.keys(details).length) throw validationError(details, 'Invalid input');
}
