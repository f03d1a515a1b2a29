// The shop's e-mail: the outbox's sender on every instance (modules/mail/mail-sender.ts), polling
// every MAIL_POLL_MS, and the outbox's reads for the Admin (dead letters) and the one-click
// unsubscribe. With no SMTP setting (MAIL_DISABLED=true, or none outside production) nothing is
// sent, and the start says so: the outbox keeps every message for when a sender is configured.
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';
import { refuse } from '../lib/refusals.ts';
import { writeBudgets } from '../lib/write-budget.ts';
import { mailRepository } from '../modules/mail/mail-repository.ts';
import { mailSender, SMTP_TIMEOUTS } from '../modules/mail/mail-sender.ts';
import { type UnsubscribeList, validUnsubscribe } from '../modules/mail/unsubscribe.ts';
import type { SecurityEvent } from '../modules/security/security-events.ts';
import type { DeadLetterType } from '../schemas/mail.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mail: {
      /** Sends what is due now (the sender also does every MAIL_POLL_MS); 0 when e-mail is off. */
      drain(): Promise<number>;
      deadLetters(
        pageNumber: number,
        pageSize: number,
      ): Promise<{
        letters: DeadLetterType[];
        totalPages: number;
      }>;
      /**
       * Puts a dead letter back in the queue, and records `event` (given its kind) in the same
       * transaction: its kind (an order's status, a receipt…).
       */
      retry(id: number, event: (kind: string) => SecurityEvent): Promise<string>;
      unsubscribe(clientId: number, list: UnsubscribeList, token: string): Promise<void>;
    };
  }
}

export default fp(
  async (app) => {
    const { mail: settings, jwtSecret } = app.config;
    const repo = mailRepository(app.prisma);
    const publicUrl = app.config.publicUrl ?? `http://localhost:${app.config.port}`;

    let drain = async () => 0;
    if (!settings) {
      app.log.info(
        app.config.env === 'production'
          ? 'e-mail is off (MAIL_DISABLED=true): the shop sends none, and the outbox keeps every message'
          : 'e-mail is off (no SMTP_URL): the outbox keeps every message',
      );
    } else {
      const transport = nodemailer.createTransport({ ...settings.smtp, ...SMTP_TIMEOUTS });
      const sender = mailSender(repo, transport, { ...settings, publicUrl, secret: jwtSecret }, app.log);
      let running: Promise<number> | null = null;
      let stopped = false;
      // One drain at a time per instance; a call while one runs joins it. A shutdown waits for the
      // message being sent, not for the rest of the backlog: the next instance sends that.
      // Outside any request (a dead letter's retry starts one): the drain serves the whole instance.
      drain = () => (running ??= writeBudgets.exit(() => sender.drain(() => !stopped)).finally(() => (running = null)));
      let timer: NodeJS.Timeout | undefined;
      const tick = async () => {
        await drain().catch((error: Error) => app.log.warn({ err: error }, 'the e-mail sender will try again'));
        if (!stopped) timer = setTimeout(tick, settings.pollMs).unref();
      };
      app.addHook('onReady', async () => {
        timer = setTimeout(tick, 0).unref();
      });
      app.addHook('onClose', async () => {
        stopped = true;
        clearTimeout(timer);
        await running?.catch(() => {});
        transport.close();
      });
    }

    app.decorate('mail', {
      drain: () => drain(),
      async deadLetters(pageNumber: number, pageSize: number) {
        const { total, letters } = await repo.deadLetters((pageNumber - 1) * pageSize, pageSize);
        return {
          letters: letters.map((l) => ({ ...l, id: Number(l.id), createdAt: l.createdAt.toISOString(), deadAt: l.deadAt!.toISOString() })),
          totalPages: Math.ceil(total / pageSize),
        };
      },
      async retry(id: number, event: (kind: string) => SecurityEvent) {
        const kind = await repo.retry(BigInt(id), (tx, kind) => app.securityEvents.recordIn(tx, event(kind)));
        if (!kind) throw refuse.noDeadLetter();
        void drain().catch(() => {});
        return kind;
      },
      async unsubscribe(clientId: number, list: UnsubscribeList, token: string) {
        if (!validUnsubscribe(jwtSecret, clientId, list, token)) throw refuse.badUnsubscribeLink();
        await repo.unsubscribe(clientId, list);
      },
    });
  },
  { name: 'mail', dependencies: ['config', 'prisma', 'security-events'] },
);
