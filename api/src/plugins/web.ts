// Serves the built web app at '/' on the API's origin: '/' gets index.html, which holds the home page
// prerendered; any other non-API path that is not a file gets shell.html (the same page, empty), so
// the browser router renders it; unknown /api paths get a JSON 404.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** The built app's empty page (shell.html) as it is now, for pages that fill its head; null when no web app is served. */
    webShell: (() => string) | null;
  }
}

/** A built file's text, read again only when a rebuild has changed it. */
function builtFile(file: string): () => string {
  let read = { mtimeMs: -1, text: '' };
  return () => {
    const { mtimeMs } = statSync(file);
    if (mtimeMs !== read.mtimeMs) read = { mtimeMs, text: readFileSync(file, 'utf8') };
    return read.text;
  };
}

export default fp(
  async (app) => {
    const dist = app.config.webDist;
    const serveWeb = dist !== '' && existsSync(path.join(dist, 'index.html'));
    const shellFile = path.join(dist, 'shell.html');
    app.decorate('webShell', serveWeb && existsSync(shellFile) ? builtFile(shellFile) : null);
    if (serveWeb) {
      await app.register(fastifyStatic, {
        root: path.resolve(dist),
        wildcard: false,
        // The build writes .br and .gz beside each asset (web/vite.config.ts).
        preCompressed: true,
        // Hashed assets can be cached forever; index.html must always be revalidated.
        setHeaders: (res, file) => {
          res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      if (!serveWeb || request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET') {
        return reply.status(404).send({ data: null, error: { code: 'NOT_FOUND', message: 'No such endpoint.', requestId: request.id } });
      }
      // A built asset that is not there (a tab opened before a deploy asks for the old build's chunk)
      // is a 404: answered with the app's page, the browser would take HTML for a script, and a cache
      // in front could keep that page under the asset's name.
      if (request.url.startsWith('/assets/'))
        return reply.status(404).header('cache-control', 'no-cache').type('text/plain').send('Not found');
      return reply.header('cache-control', 'no-cache').sendFile('shell.html');
    });
  },
  { name: 'web', dependencies: ['config'] },
);
