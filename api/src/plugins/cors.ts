// Frontends on other sites (CORS_ORIGINS) may call the API with credentials: their preflights are
// answered and their answers readable. No other origin gets any CORS header, so without the
// allowlist the API stays same-origin only.
import cors from '@fastify/cors';
import fp from 'fastify-plugin';

export default fp(
  async (app) => {
    const allowed = new Set(app.config.corsOrigins);
    if (!allowed.size) return;
    await app.register(cors, {
      origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      // If-Match and the ETag it echoes: a versioned save or delete from that frontend too.
      allowedHeaders: ['content-type', 'idempotency-key', 'if-match', 'authorization'],
      exposedHeaders: ['retry-after', 'x-total-count', 'x-list-truncated', 'etag'],
      maxAge: 600,
    });
  },
  { name: 'cors', dependencies: ['config'] },
);
