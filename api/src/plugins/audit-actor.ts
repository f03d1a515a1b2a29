// The signed-in employee as the audit log names them (decision 10): carried from the role check into
// every query of the request, where the audited client names them in each write's transaction.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type AuditActor, auditContext } from '../modules/security/audit.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Runs the rest of the request with the signed-in employee as the audit actor (after
     * requireEmployee). Callback-style on purpose: calling `done` inside AsyncLocalStorage.run is what
     * carries the actor into the later hooks, the handler and every query they start.
     */
    asAuditActor(request: FastifyRequest, reply: FastifyReply, done: () => void): void;
    /** The signed-in employee as the audit log names them, for work that outlives the request (an import). */
    auditActor(request: FastifyRequest): AuditActor;
  }
}

export default fp(
  async (app) => {
    const auditActor = (request: FastifyRequest): AuditActor => {
      if (!request.employee) throw new Error('auditActor needs an employee session (requireEmployee runs first)');
      return { actor: `employee:${request.employee.id}`, address: app.clientAddress(request) };
    };
    app.decorate('auditActor', auditActor);
    app.decorate('asAuditActor', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      if (!request.employee) return done();
      auditContext.run(auditActor(request), done);
    });
  },
  { name: 'audit-actor', dependencies: ['security-events', 'sessions'] },
);
