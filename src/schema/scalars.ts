import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.js';

builder.scalarType('DateTime', {
  description: 'An ISO 8601 date-time string, for example 2026-11-22T10:00:00.000Z.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('Must be an ISO 8601 date-time string');
    return date;
  },
  parseLiteral: (ast) => {
    const date = ast.kind === Kind.STRING ? new Date(ast.value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('Must be an ISO 8601 date-time string');
    return date;
  },
});

builder.scalarType('Decimal', {
  description: 'A decimal number, such as a unit cost, sent as a JSON number.',
  serialize: (value) => (typeof value === 'number' ? value : value.toNumber()),
  parseValue: (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new GraphQLError('Must be a number');
    return value;
  },
});

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (value: unknown): value is string => typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value));

builder.scalarType('Date', {
  description: 'An ISO 8601 calendar date, for example 2026-11-22.',
  serialize: (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10)),
  parseValue: (value) => {
    if (!validDate(value)) throw new GraphQLError('Must be an ISO 8601 date (YYYY-MM-DD)');
    return value;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || !validDate(ast.value)) throw new GraphQLError('Must be an ISO 8601 date (YYYY-MM-DD)');
    return ast.value;
  },
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
