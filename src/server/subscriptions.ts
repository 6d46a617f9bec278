import type { IncomingMessage, Server } from 'node:http';
import { getOperationAST, type GraphQLError, parse, specifiedRules, validate, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { App } from '../context.js';
import { DomainError, validationError } from '../kernel/errors.js';
import { inputProblems } from '../input-text.js';
import { maskedForSocket, toGraphQLError } from './graphql-errors.js';
import { checkCost, checkTokens, limitRules } from './graphql-limits.js';
import { badTextInStringLiterals } from './input-check-plugin.js';
import { type RequestLimiter, refusalMessage } from './rate-limit.js';
import { watchSocketCredentials } from './socket-credential-watch.js';
import { subscribeWithEventContexts } from './per-event-context.js';
import { authenticateSocket, closeForCredentials, socketCredentials, type SocketCredentials } from './socket-credentials.js';

type Extra = {
  socket: WebSocket;
  request: IncomingMessage;
  credentials?: SocketCredentials;
};

/**
 * GraphQL subscriptions over graphql-ws on the HTTP server's /graphql path.
 *
 * Credentials come with connection_init and are checked again for every operation and, for sockets
 * that only listen, every `wsCredentialCheckSeconds`: credentials that stopped working close the socket
 * with 4000 + the HTTP status the same credentials get over HTTP (4401, 4403) and the error's code and
 * message as the reason. Only subscriptions are served: queries and mutations go over HTTP, where the
 * body and cost limits apply, and are answered here with OPERATION_NOT_ALLOWED. The request limits count
 * a connection and each subscribe message as one request of its credentials and address, before any
 * database work: a refused connection closes with 4429, a refused subscribe gets RATE_LIMITED.
 */
export function serveSubscriptions(app: App, server: Server, schema: GraphQLSchema, limiter?: RequestLimiter) {
  const { wsMaxMessageBytes, wsMaxSubscriptions, wsMaxConnectionsPerCaller, wsCredentialCheckSeconds, graphql: limits } = app.config;
  // The same document limits as over HTTP; a socket always has credentials.
  const rules = [...specifiedRules, ...limitRules(limits, true), badTextInStringLiterals];
  // ws refuses a larger message from its frame headers (close 1009), before reading it.
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: wsMaxMessageBytes });
  const watch = watchSocketCredentials(app, wsCredentialCheckSeconds * 1000);
  const refuseOverLimit = async (credentials: SocketCredentials) => {
    const retryAfter = limiter ? (await limiter.take(credentials.headers, credentials.clientIp)).retryAfter : undefined;
    if (retryAfter !== undefined) throw new DomainError('RATE_LIMITED', refusalMessage(retryAfter), { retryAfter });
  };

  const graphqlWs = useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      subscribe: subscribeWithEventContexts,
      onConnect: async (ctx) => {
        const { socket, request } = ctx.extra;
        const credentials = socketCredentials(app, request, ctx.connectionParams);
        try {
          await refuseOverLimit(credentials);
          const context = await authenticateSocket(app, credentials);
          if (watch.socketsOf(context.auth!) >= wsMaxConnectionsPerCaller) {
            throw new DomainError('TOO_MANY_CONNECTIONS', `At most ${wsMaxConnectionsPerCaller} connections are open at once for one API key or user`);
          }
          ctx.extra.credentials = credentials;
          watch.add(socket, credentials, context.auth!);
          return true;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          closeForCredentials(socket, error);
          return false;
        }
      },
      onSubscribe: async (ctx, id, payload) => {
        const { socket, credentials } = ctx.extra;
        // Refused before any database work; graphql-ws has already counted this operation.
        if (Object.keys(ctx.subscriptions).length > wsMaxSubscriptions) {
          return [toGraphQLError(new DomainError('TOO_MANY_SUBSCRIPTIONS', `At most ${wsMaxSubscriptions} operations run at once on one connection`))];
        }
        let contextValue;
        try {
          await refuseOverLimit(credentials!);
        } catch (error) {
          return [toGraphQLError(error as DomainError)];
        }
        try {
          contextValue = await authenticateSocket(app, credentials!);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          closeForCredentials(socket, error);
          return [toGraphQLError(error)];
        }
        watch.renew(socket, contextValue.auth!);
        // The input check of both HTTP doors (src/input-text.ts): the text rule and deep nesting.
        const problems = inputProblems(payload.variables ?? {});
        if (Object.keys(problems).length) return [toGraphQLError(validationError(problems, 'Invalid input'))];
        let document;
        try {
          checkTokens(payload.query, limits);
          document = parse(payload.query);
        } catch (error) {
          return [error as GraphQLError];
        }
        const operation = getOperationAST(document, payload.operationName);
        if (operation && operation.operation !== 'subscription') {
          return [toGraphQLError(new DomainError('OPERATION_NOT_ALLOWED', `Only subscriptions are served over WebSocket; send ${operation.operation} operations to POST /graphql`))];
        }
        const errors = validate(schema, document, rules);
        if (errors.length) return errors;
        try {
          checkCost(schema, limits, document, payload.variables ?? undefined, payload.operationName);
        } catch (error) {
          return [error as GraphQLError];
        }
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map(maskedForSocket) } : undefined),
      onError: (_ctx, _id, _payload, errors) => errors.map(maskedForSocket),
    },
    wss,
  );

  wss.on('connection', (socket) => {
    // ws closes the socket itself on a socket error (1009 for an oversized message, 1002 for a bad
    // frame); graphql-ws's listener would only log each one, which any anonymous client could repeat.
    socket.removeAllListeners('error');
    socket.on('error', () => {});
  });

  return {
    async close() {
      watch.stop();
      // Clients get a 1001 close; any that does not answer the closing handshake soon is cut off.
      const cutOff = setTimeout(() => wss.clients.forEach((client) => client.terminate()), 1000);
      await graphqlWs.dispose();
      clearTimeout(cutOff);
    },
  };
}
