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
    /**
     * An employee's back-office session begun (ASVS 16.3.1): with the way they proved who they are,
     * so the audit log shows when and from where each staff session started.
     */
    recordEmployeeSignIn(request: FastifyRequest, employeeId: number, method: 'password' | 'second_factor' | 'passkey'): Promise<void>;
    /**
     * What a client did to their account (ASVS 16.3.1): signed in (grouped per account, address and
     * window), signed up, changed their password; so a taken-over account's trail says from where.
     */
    recordClientEvent(
      request: FastifyRequest,
      type: 'client_signed_in' | 'client_signed_up' | 'password_changed',
      clientId: number,
    ): Promise<void>;
  }
}

export default fp(
  async (app) => {
    app.decorate('securityEvents', securityEvents(app.prisma, app.log));
    app.decorate('clientAddress', (request: FastifyRequest) => addressKey(request.ip));
    app.decorate('recordEmployeeSignIn', (request: FastifyRequest, employeeId: number, method: 'password' | 'second_factor' | 'passkey') =>
      app.securityEvents.record({
        type: 'employee_signed_in',
        actor: `employee:${employeeId}`,
        address: app.clientAddress(request),
        entity: 'Employee',
        entityId: employeeId,
        details: { method },
      }),
    );
    app.decorate(
      'recordClientEvent',
      (request: FastifyRequest, type: 'client_signed_in' | 'client_signed_up' | 'password_changed', clientId: number) =>
        app.securityEvents.record({
          type,
          actor: `client:${clientId}`,
          address: app.clientAddress(request),
          entity: 'Client',
          entityId: clientId,
        }),
    );
  },
  { name: 'security-events', dependencies: ['prisma'] },
);
