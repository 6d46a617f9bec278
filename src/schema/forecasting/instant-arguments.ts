/**
 * DateTime arguments arrive as dates; a query contract checks the text a query string carries. The
 * arguments with these instants as ISO 8601 text, for the one parse.
 */
export function instantsAsText(args: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return { ...args, ...Object.fromEntries(keys.map((key) => [key, args[key] instanceof Date ? args[key].toISOString() : args[key]])) };
}
