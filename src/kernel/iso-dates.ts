/** Plain ISO date (YYYY-MM-DD) to the Date stored in a DATE column. */
export const dateOnly = (text: string) => new Date(`${text}T00:00:00.000Z`);

/** The ISO date (YYYY-MM-DD) of a DATE column's value, as Prisma or raw SQL returns it. */
export const isoDay = (value: Date | string | null | undefined) =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
