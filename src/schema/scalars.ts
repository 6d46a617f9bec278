import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.js';
import { calendarDate, DATE_MESSAGE, DATE_TIME_MESSAGE, dateTimeOf, DECIMAL_RANGE_MESSAGE, decimalInRange, MAX_INT, MAX_YEAR, MIN_YEAR, YEAR_RANGE_MESSAGE, yearInRange } from '../kernel/input-limits.js';
import { isoDateTime } from '../kernel/iso-date-time.js';
import { MAX_TOTAL, TOTAL_RANGE_MESSAGE, totalInRange } from '../kernel/quantity-totals.js';

function dateTime(value: unknown): Date {
  const date = typeof value === 'string' ? dateTimeOf(value) : null;
  if (!date) throw new GraphQLError(DATE_TIME_MESSAGE);
  if (!yearInRange(date)) throw new GraphQLError(YEAR_RANGE_MESSAGE);
  return date;
}

builder.scalarType('DateTime', {
  description: `An ISO 8601 date-time, for example 2026-11-22T10:00:00.000Z: YYYY-MM-DDTHH:MM[:SS[.fraction]] then Z or ±HH:MM (hours 00 to 23; a time zone is required, a date alone is not a date-time), in the years ${MIN_YEAR} to ${MAX_YEAR} (UTC).`,
  serialize: (value) => (value instanceof Date ? isoDateTime(value) : String(value)),
  parseValue: dateTime,
  parseLiteral: (ast) => dateTime(ast.kind === Kind.STRING ? ast.value : null),
});

function decimal(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new GraphQLError('Must be a number');
  // The columns are numeric(14, 4): a larger value would fail in the database.
  if (!decimalInRange(value)) throw new GraphQLError(DECIMAL_RANGE_MESSAGE);
  return value;
}

builder.scalarType('Decimal', {
  description: 'A decimal number, such as a unit cost, sent as a JSON number; at most 9999999999.9999 in size (stored with 4 decimal places).',
  serialize: (value) => (typeof value === 'number' ? value : value.toNumber()),
  parseValue: decimal,
  parseLiteral: (ast) => decimal(ast.kind === Kind.INT || ast.kind === Kind.FLOAT ? Number(ast.value) : null),
});

function bigQuantity(value: unknown): number {
  const total = typeof value === 'bigint' ? Number(value) : value;
  if (typeof total !== 'number' || !totalInRange(total)) throw new GraphQLError(TOTAL_RANGE_MESSAGE);
  return total;
}

// Sums of units (on hand over lots, a transfer's lines, ATP over locations) pass Int's 2^31 − 1 long before
// any single quantity can: they get a type of their own, still a JSON number.
builder.scalarType('BigQuantity', {
  description:
    `A whole number of units that is a sum or total (over stock lines, lots, transfer lines or locations), sent as a JSON number. ` +
    `Unlike Int it may exceed ${MAX_INT} (each single quantity is at most that); it is at most ${MAX_TOTAL} (2^53 − 1), so every JSON client reads it exactly.`,
  serialize: bigQuantity,
  parseValue: bigQuantity,
  parseLiteral: (ast) => bigQuantity(ast.kind === Kind.INT ? Number(ast.value) : null),
});

function date(value: unknown): string {
  const day = typeof value === 'string' ? calendarDate(value) : null;
  if (!day) throw new GraphQLError(DATE_MESSAGE);
  if (!yearInRange(day)) throw new GraphQLError(YEAR_RANGE_MESSAGE);
  return value as string;
}

builder.scalarType('Date', {
  description: `An ISO 8601 calendar date YYYY-MM-DD that exists, for example 2026-11-22, in the years ${MIN_YEAR} to ${MAX_YEAR}.`,
  serialize: (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10)),
  parseValue: date,
  parseLiteral: (ast) => date(ast.kind === Kind.STRING ? ast.value : null),
});

builder.scalarType('JSON', {
  description: 'Any JSON value (object, array, string, number, boolean or null), for example the rows of an import.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: function literal(ast, variables): unknown {
    switch (ast.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return ast.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(ast.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return ast.values.map((v) => literal(v, variables));
      case Kind.OBJECT:
        return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value, variables)]));
      case Kind.VARIABLE:
        return variables?.[ast.name.value];
      default:
        throw new GraphQLError('Not a JSON value');
    }
  },
});
