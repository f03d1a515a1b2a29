// Who did what from where, as the security log and the limits name them: the security events
// (modules/security/security-events.ts) and the client's address they and the rate limits count by.
// Sessions, the password check, the rate limits and the cross-site check all record through these.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { addressKey } from '../lib/client-address.ts';
import { type SecurityEvents, securityEvents } from '../modules/security/security-events.ts';

declare module 'fastify' {
  interface FastifyInstance {
    securityEvents: SecurityEvents;
    /** The client's address as counted by limits: IPv4, or the IPv6 /64 (see lib/client-address.ts). */
    clientAddress(request: FastifyRequest): string;
  }
}

export default fp(
  async (app) => {
    app.decorate('securityEvents', securityEvents(app.prisma, app.log));
    app.decorate('clientAddress', (request: FastifyRequest) => addressKey(request.ip));
  },
  { name: 'security-events', dependencies: ['prisma'] },
);
