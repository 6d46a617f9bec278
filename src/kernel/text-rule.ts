/**
 * The one rule every text input obeys, wherever it enters (REST, GraphQL, graphql-ws, import rows):
 * well-formed Unicode without the NUL character. PostgreSQL text can hold neither a NUL nor a lone
 * UTF-16 surrogate (`"\ud800"` in JSON): a query naming one fails in the database, or the driver
 * silently turns the surrogate into U+FFFD, storing something the caller never sent.
 */
export const NUL_MESSAGE = 'Must not contain the NUL character (\\u0000)';
export const LONE_SURROGATE_MESSAGE = 'Must be well-formed Unicode: a lone surrogate (such as \\ud800) is not a character';

/** What is wrong with this text under the rule, or undefined when nothing is. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  // A surrogate not paired is a code unit, not a character: in Unicode mode the class matches only those.
  if (!isWellFormed(text) && LONE_SURROGATE.test(text)) return LONE_SURROGATE_MESSAGE;
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** String.prototype.isWellFormed (Node 20): native, so the common case costs no regular expression. */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/** The text with what the rule refuses spelled as escapes (`\u0000`, `\ud800`), so that it can be shown. */
export const printable = (text: string) =>
  text.replace(/[\u0000\uD800-\uDFFF]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
