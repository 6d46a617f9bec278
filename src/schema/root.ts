import { builder } from './builder.js';

builder.queryType({ description: 'Reads. Every field is limited to the organization of the caller.' });
builder.mutationType({ description: 'Writes. Every field is limited to the organization of the caller.' });
builder.subscriptionType({ description: 'Live updates over graphql-ws at /graphql. Every field is limited to the organization of the caller.' });
