// What the browser says of where a request comes from (Fetch Metadata, `Sec-Fetch-*`).
import type { FastifyRequest } from 'fastify';

/**
 * Whether another site's page made the request (an image, a script, a navigation, a fetch), other
 * than as a CORS call from one of `frontends` (CORS_ORIGINS). Such a request carries the shop's
 * cookies only when SameSite=None lets them go (with CORS_ORIGINS), and none of them is its own: not
 * a session (any signed-in call marks it active), nor a sign-in's second step. A browser that sends no
 * Fetch Metadata is not judged.
 */
export const fromAnotherSitesPage = (request: FastifyRequest, frontends: ReadonlySet<string>) =>
  request.headers['sec-fetch-site'] === 'cross-site' &&
  !(request.headers['sec-fetch-mode'] === 'cors' && frontends.has(request.headers.origin ?? ''));
