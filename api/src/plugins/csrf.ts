// Cookies are SameSite=Strict already (None only for the CORS_ORIGINS frontends); as a second guard,
// a state-changing call whose Origin names another site, other than those frontends and
// TRUSTED_ORIGINS, is refused. Requests without Origin (curl, server-to-server) carry no cookies of
// ours from a browser on another site, so they pass.
//
// The check is each route's own last onRequest hook, after the route's rate limit (one counted on
// the request; a limit counted per signed-in client runs later, so a refused cross-site call never
// counts against the client): a loop of refused calls is throttled before it is recorded, a path
// that does not exist records nothing (it is no route), and the record itself is one row per address
// and window (modules/security/security-events.ts).
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../lib/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export default fp(
  async (app) => {
    const trusted = new Set([...app.config.trustedOrigins, ...app.config.corsOrigins]);
    // With PUBLIC_URL, the shop's pages are served over its scheme only: a page of the same host over
    // plain http (an active attacker's, before the browser keeps HSTS) is another site.
    const shopScheme = app.config.publicUrl ? new URL(app.config.publicUrl).protocol : null;
    const refuseCrossSite = async (request: FastifyRequest) => {
      const origin = request.headers.origin;
      if (!origin) return;
      let sameSite = false;
      try {
        const url = origin === 'null' ? null : new URL(origin);
        sameSite = url !== null && url.host === request.host && (shopScheme === null || url.protocol === shopScheme);
      } catch {}
      if (sameSite || trusted.has(origin)) return;
      // A route whose session's check runs beside its body (checkout) has not awaited it yet: an
      // ended session is answered 401 and records nothing here, as on every other client route.
      await request.clientToConfirm?.live;
      await app.securityEvents.record({
        type: 'csrf_refused',
        address: app.clientAddress(request),
        details: { origin: origin.slice(0, 200), method: request.method, route: request.routeOptions.url },
      });
      throw forbidden('Cross-site request refused.');
    };
    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      if (methods.every((method) => SAFE_METHODS.has(method))) return;
      route.onRequest = [...[route.onRequest ?? []].flat(), refuseCrossSite];
    });
  },
  { name: 'csrf', dependencies: ['config', 'security-events', 'rate-limit'] },
);
