// Cookies are SameSite=Strict already (None only for the CORS_ORIGINS frontends); as a second guard,
// a state-changing call whose Origin names another site, other than those frontends and
// TRUSTED_ORIGINS, is refused. Requests without Origin (curl, server-to-server) carry no cookies of
// ours from a browser on another site, so they pass.
import fp from 'fastify-plugin';
import { forbidden } from '../lib/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export default fp(
  async (app) => {
    const trusted = new Set([...app.config.trustedOrigins, ...app.config.corsOrigins]);
    app.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method)) return;
      const origin = request.headers.origin;
      if (!origin) return;
      let host: string | null = null;
      try {
        host = origin === 'null' ? null : new URL(origin).host;
      } catch {}
      if (host === request.host || trusted.has(origin)) return;
      await app.securityEvents.record({
        type: 'csrf_refused',
        address: app.clientAddress(request),
        details: { origin: origin.slice(0, 200), method: request.method, url: request.url.slice(0, 200) },
      });
      throw forbidden('Cross-site request refused.');
    });
  },
  { name: 'csrf', dependencies: ['config', 'auth'] },
);
