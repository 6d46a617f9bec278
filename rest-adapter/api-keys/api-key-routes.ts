import { API_KEY_SCOPES } from '../../src/auth/permissions.js';
import { apiKeyContracts } from '../../src/contracts/api-keys/api-key-input.js';
import { defineRoutes } from '../route.js';
import { jsonContent, pathParam, responses } from '../openapi-common.js';
import { apiKey, apiKeyList, apiKeyWithSecret } from './api-key-responses.js';

const API_KEY = 'id name prefix scopes allowedIps expiresAt lastUsedAt revokedAt previousKeyExpiresAt createdByUserId createdAt updatedAt';

const SESSION_ONLY =
  'Needs a signed-in user with role ADMIN (session token or cookie). API keys are refused with 403 FORBIDDEN, whatever their scopes.';

const contracts = apiKeyContracts(API_KEY_SCOPES);

const keyResponse = (description: string) => ({ description, ...jsonContent(apiKey) });
const secretResponse = (description: string) => ({ description, ...jsonContent(apiKeyWithSecret) });
const idParam = pathParam('id', 'API key id');
const doc = { tags: ['Administration'], security: [{ bearerAuth: [] }, { sessionCookie: [] }] };

export const apiKeyRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/admin/api-keys',
    operation: `query { allApiKeys { ${API_KEY} } }`,
    result: (data) => ({ data: data.allApiKeys }),
    doc: {
      operationId: 'listApiKeys',
      ...doc,
      summary: 'List API keys',
      description: `Every key of the organization, revoked ones too, newest first. ${SESSION_ONLY}`,
      responses: responses(
        { 200: { description: 'The keys, without secrets', ...jsonContent(apiKeyList) } },
        [401, 403],
      ),
    },
  },
  {
    method: 'POST',
    path: '/api/admin/api-keys',
    operation: `mutation ($input: ApiKeyCreateInput!) { createApiKey(input: $input) { key apiKey { ${API_KEY} } } }`,
    input: { body: contracts.create },
    variables: ({ body }) => ({ input: body }),
    result: ({ createApiKey: { apiKey, key } }) => ({ ...apiKey, key }),
    status: 201,
    doc: {
      operationId: 'createApiKey',
      ...doc,
      summary: 'Create an API key',
      description: `Returns the secret in \`key\`, this once. ${SESSION_ONLY}`,
      responses: responses({ 201: secretResponse('The new key and its secret') }, [400, 401, 403]),
    },
  },
  {
    method: 'GET',
    path: '/api/admin/api-keys/:id',
    operation: `query ($id: ID!) { apiKey(id: $id) { ${API_KEY} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.apiKey,
    doc: {
      operationId: 'getApiKey',
      ...doc,
      summary: 'Get an API key',
      description: SESSION_ONLY,
      parameters: [idParam],
      responses: responses({ 200: keyResponse('The key, without its secret') }, [401, 403, 404]),
    },
  },
  {
    method: 'PATCH',
    path: '/api/admin/api-keys/:id',
    operation: `mutation ($id: ID!, $input: ApiKeyUpdateInput!) { updateApiKey(id: $id, input: $input) { ${API_KEY} } }`,
    input: { body: contracts.update },
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => data.updateApiKey,
    doc: {
      operationId: 'updateApiKey',
      ...doc,
      summary: 'Update an API key',
      description: `Changes name, scopes, allowed IPs or expiry; takes effect on the key's next request. ${SESSION_ONLY}`,
      parameters: [idParam],
      responses: responses({ 200: keyResponse('The changed key') }, [400, 401, 403, 404, 409]),
    },
  },
  {
    method: 'POST',
    path: '/api/admin/api-keys/:id/revoke',
    operation: `mutation ($id: ID!) { revokeApiKey(id: $id) { ${API_KEY} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.revokeApiKey,
    doc: {
      operationId: 'revokeApiKey',
      ...doc,
      summary: 'Revoke an API key',
      description: `The key stops working at once (401 REVOKED_API_KEY). Revoking a revoked key is 409 INVALID_STATE. ${SESSION_ONLY}`,
      parameters: [idParam],
      responses: responses({ 200: keyResponse('The revoked key') }, [401, 403, 404, 409]),
    },
  },
  {
    method: 'POST',
    path: '/api/admin/api-keys/:id/rotate',
    operation: `mutation ($id: ID!, $input: ApiKeyRotateInput) { rotateApiKey(id: $id, input: $input) { key apiKey { ${API_KEY} } } }`,
    input: { body: contracts.rotate },
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: ({ rotateApiKey: { apiKey, key } }) => ({ ...apiKey, key }),
    doc: {
      operationId: 'rotateApiKey',
      ...doc,
      summary: 'Rotate an API key',
      description:
        'Gives the key a new secret, returned in `key` this once. The old secret stops working at once (401 INVALID_API_KEY), ' +
        'or at previousKeyExpiresAt when gracePeriodSeconds is given. A revoked key cannot be rotated (409 INVALID_STATE). ' +
        SESSION_ONLY,
      parameters: [idParam],
      responses: responses({ 200: secretResponse('The key and its new secret') }, [400, 401, 403, 404, 409]),
    },
  },
]);
