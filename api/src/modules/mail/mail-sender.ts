// The outbox's sender: claims due rows (FOR UPDATE SKIP LOCKED, then a lease), renders and sends
// each over SMTP, and settles it. Every instance runs one; two never send one row twice, since a
// claim is atomic and a row stays claimed while it is sent. An instance that dies mid-send leaves
// at most the rows it held, which the lease's end frees for another: that one message may go twice,
// nothing is lost. A failed send is due again after a backoff that doubles per try; after the last
// try it is a dead letter an Admin sees and can retry. Nothing here runs inside a request.
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { ClaimedMail, MailRepository } from './mail-repository.ts';
import { renderMail } from './mail-templates.ts';
import { unsubscribeUrls } from './unsubscribe.ts';

/** Rows one sender claims at a time. */
const BATCH = 10;
/** How long a claimed row is this sender's: far longer than a send, short enough to resend soon after a crash. */
export const LEASE_MS = 2 * 60_000;
/** The longest wait between two tries. */
const MAX_BACKOFF_MS = 6 * 60 * 60_000;

export interface SenderSettings {
  from: string;
  publicUrl: string;
  secret: string;
  maxAttempts: number;
  retryBaseMs: number;
}

export function mailSender(
  repo: MailRepository,
  transport: Pick<Transporter, 'sendMail'>,
  settings: SenderSettings,
  log: FastifyBaseLogger,
) {
  async function deliver(row: ClaimedMail) {
    const addressed = await repo.address(row);
    if (!addressed) return repo.settled(row.id, 'Not sent: what it told of no longer exists.');
    if (addressed.skip) return repo.settled(row.id, `Not sent: ${addressed.skip}`);
    const unsubscribe =
      addressed.list && unsubscribeUrls(settings.publicUrl, settings.secret, addressed.list.clientId, addressed.list.list);
    const mail = renderMail(addressed.facts, settings.publicUrl, unsubscribe?.page);
    try {
      await transport.sendMail({
        from: settings.from,
        to: { name: addressed.to.name, address: addressed.to.address },
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(unsubscribe
          ? {
              list: { unsubscribe: { url: unsubscribe.oneClick, comment: 'Unsubscribe' } },
              headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
            }
          : {}),
      });
    } catch (error) {
      const reason = (error as Error).message.slice(0, 500);
      const last = row.attempts >= settings.maxAttempts;
      const backoff = Math.min(settings.retryBaseMs * 2 ** (row.attempts - 1), MAX_BACKOFF_MS);
      log.warn({ mail: String(row.id), kind: row.kind, attempt: row.attempts, last, err: reason }, 'an e-mail could not be sent');
      return repo.failed(row.id, reason, last ? null : backoff);
    }
    return repo.settled(row.id);
  }

  return {
    /** Sends what is due until nothing is; answers how many rows it settled or failed. */
    async drain(): Promise<number> {
      let handled = 0;
      for (;;) {
        const rows = await repo.claim(BATCH, LEASE_MS);
        if (!rows.length) return handled;
        for (const row of rows) {
          await deliver(row).catch((error: Error) => log.error({ err: error, mail: String(row.id) }, 'an outbox row could not be settled'));
        }
        handled += rows.length;
      }
    },
  };
}

export type MailSender = ReturnType<typeof mailSender>;
