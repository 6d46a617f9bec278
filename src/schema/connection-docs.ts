import { isObjectType, type GraphQLSchema } from 'graphql';

/**
 * Describes the `totalCount` field the Prisma plugin adds to connections that count (it takes no
 * description of its own); every other shared part of a connection is described in the builder's
 * relay options.
 */
export function describeTotalCounts(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || !type.name.endsWith('Connection')) continue;
    const field = type.getFields().totalCount;
    if (field && !field.description) field.description = 'How many items the whole list holds, over all pages (the same filters applied).';
  }
  return schema;
}
