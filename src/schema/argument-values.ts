// GraphQL gives absent arguments as null and ID arguments as string or number; services take undefined
// for "not given" and ids as text.

/** An ID argument as text; null or absent: undefined. */
export const asString = (value: string | number | null | undefined) => (value == null ? undefined : String(value));

/** A nullable argument as optional: null becomes undefined. */
export const orAbsent = <T>(value: T | null | undefined) => value ?? undefined;
