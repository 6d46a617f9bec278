import { createHash } from 'node:crypto';
import type { GraphiQLOptions } from 'graphql-yoga';
import { escapeHtml, scriptJson, serveStaticFile, type StaticFile, textFile } from './static-files.js';

/** Where GraphiQL's own files are served, so that the page works on a machine without internet. */
export const GRAPHIQL_ASSETS_PATH = '/graphql/assets/';

type Assets = { version: string; files: Map<string, StaticFile> };

let loaded: Promise<Assets> | undefined;

/**
 * The files of the GraphiQL build that matches our graphql-yoga (@graphql-yoga/render-graphiql, which has
 * no dependencies of its own), loaded on first use: the script alone is about 9 MB. `version` is a
 * digest of them all, so a page names the exact files it was rendered with and browsers may keep them.
 */
function assets(): Promise<Assets> {
  loaded ??= import('@graphql-yoga/render-graphiql/graphiql').then((build) => {
    const files = new Map<string, StaticFile>([
      ['yoga-graphiql.js', textFile(build.js, 'text/javascript')],
      ['graphiql.css', textFile(build.css, 'text/css')],
      ['editor.worker.js', textFile(build.editorWorkerService, 'text/javascript')],
      ['json.worker.js', textFile(build.jsonWorker, 'text/javascript')],
      ['graphql.worker.js', textFile(build.graphqlWorker, 'text/javascript')],
      ['favicon.ico', { body: new Uint8Array(Buffer.from(build.favicon.slice(build.favicon.indexOf(',') + 1), 'base64')), contentType: 'image/x-icon' }],
    ]);
    const digest = createHash('sha256');
    for (const [name, file] of files) digest.update(name).update(file.body);
    return { version: digest.digest('hex').slice(0, 16), files };
  });
  return loaded;
}

/**
 * `GET /graphql/assets/<file>`: only the files of the GraphiQL build, each with its type; cacheable for a
 * year (the page asks for them by version); brotli or gzip when the browser accepts it (the script is
 * about 9 MB as it is).
 */
export async function serveGraphiQLAsset(request: Request): Promise<Response> {
  return serveStaticFile(request, GRAPHIQL_ASSETS_PATH, (await assets()).files);
}

/** The GraphiQL page, loading every file from this server (Yoga's default page loads them from a public CDN). */
export async function renderGraphiQLPage(options: GraphiQLOptions = {}): Promise<string> {
  const { version } = await assets();
  const asset = (name: string) => `${GRAPHIQL_ASSETS_PATH}${name}?v=${version}`;
  const workers = { editorWorkerService: asset('editor.worker.js'), json: asset('json.worker.js'), graphql: asset('graphql.worker.js') };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title ?? 'GraphiQL')}</title>
    <link rel="icon" href="${asset('favicon.ico')}" />
    <link rel="stylesheet" href="${asset('graphiql.css')}" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root">Loading…</div>
    <script>
      const workers = ${scriptJson(workers)};
      self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => workers[label] ?? workers.editorWorkerService };
    </script>
    <script src="${asset('yoga-graphiql.js')}"></script>
    <script>YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), ${scriptJson(options)});</script>
  </body>
</html>
`;
}
