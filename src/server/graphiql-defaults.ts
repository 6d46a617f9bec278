/** What GraphiQL opens with on a first visit: a query worth running, and where the API key goes. */
export const GRAPHIQL_DEFAULT_QUERY = `# Welcome to the supply chain GraphQL API.
#
# Every request needs credentials: open "Headers" below and replace <your API key>
# with an API key (npm run admin -- create-api-key, or the createApiKey mutation),
# or sign in to the app in this browser instead and delete the Authorization line.
# Then press the run button (Ctrl-Enter). The Docs panel lists every type and field.

query ProductsWithStock {
  products(first: 10) {
    totalCount
    edges {
      node {
        id
        sku
        name
        stock(first: 20) {
          totalCount
          edges {
            node {
              id
              location { name }
              lot { code expiryDate }
              bin { code }
              quantityOnHand
              quantityAvailable
            }
          }
        }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}
`;

/** The headers editor's template (JSON, as GraphiQL expects). */
export const GRAPHIQL_HEADERS = JSON.stringify({ Authorization: 'Bearer <your API key>' }, null, 2);
