/**
 * Escapes LIKE wildcards so a search matches the literal text: Prisma's `contains` and our own ILIKE
 * queries would otherwise treat % and _ typed by a user as patterns.
 */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => '\\' + c);
