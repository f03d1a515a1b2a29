// The outbox's sender: claims one due row at a time (FOR UPDATE SKIP LOCKED, then a lease), renders
// and sends it over SMTP, and settles it. Every instance runs one; two never hold one row at once,
// since a claim is atomic, a send is cut (SEND_DEADLINE_MS from the claim) long before the lease
// ends, and a row is settled only by the sender whose lease it still is. A message may still go twice,
// none is lost: an instance that dies mid-send leaves the one row it held, which the lease's end frees
// for another, and a send cut just after the server took the message is tried again. A failed send is
// due again after a backoff that doubles per try; after the last try it is a dead letter an Admin sees
// and can retry. Nothing here runs inside a request.
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { ClaimedMail, MailRepository } from './mail-repository.ts';
import { renderMail } from './mail-templates.ts';
import { unsubscribeUrls } from './unsubscribe.ts';

/** Rows one sender claims at a time: one, so no row waits claimed behind another's slow send. */
const BATCH = 1;
/** How long a claimed row is this sender's: far longer than a send may take, short enough to resend soon after a crash. */
export const LEASE_MS = 2 * 60_000;
/** nodemailer's limits for each wait of a send (its defaults allow 10 minutes). */
export const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 40_000 };
/**
 * A claimed row's whole preparing and sending, from its claim: the send is cut (its connection
 * closed) at half the lease. SMTP_TIMEOUTS bound each wait, not their sum: a server slow at each of a
 * send's ten or so replies (a tarpit, an overloaded relay) could hold one past the lease, and another
 * sender would claim the row and send it again.
 */
export const SEND_DEADLINE_MS = LEASE_MS / 2;
/** A message that waited longer than this (the shop had mail turned off, say) is news no more: settled unsent. */
const MAX_AGE_MS = 3 * 24 * 60 * 60_000;
/** An e-mail address, as a server's refusal may quote it ("<ann@example.com>: Recipient address rejected"). */
const EMAIL_ADDRESS = /[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g;
/** The longest wait between two tries. */
const MAX_BACKOFF_MS = 6 * 60 * 60_000;

export interface SenderSettings {
  from: string;
  publicUrl: string;
  secret: string;
  maxAttempts: number;
  retryBaseMs: number;
  /** SEND_DEADLINE_MS unless a test says otherwise. */
  sendDeadlineMs?: number;
}

export function mailSender(
  repo: MailRepository,
  transport: Pick<Transporter, 'sendMail'>,
  settings: SenderSettings,
  log: FastifyBaseLogger,
) {
  /**
   * A try that did not send: due again after a backoff that doubles per try, or a dead letter after
   * the last. Whatever went wrong (the server refused, or the row's facts could not be read or
   * rendered), so no row is claimed again and again past its last try, unseen by the Admin.
   */
  function failed(row: ClaimedMail, error: unknown, stage: 'sent' | 'prepared') {
    const whole = error instanceof Error ? error.message : String(error);
    const reason = whole.slice(0, 500);
    const last = row.attempts >= settings.maxAttempts;
    const backoff = Math.min(settings.retryBaseMs * 2 ** (row.attempts - 1), MAX_BACKOFF_MS);
    // The log names no recipient (the Admin's dead-letter screen keeps the whole reason).
    const logged = whole.replace(EMAIL_ADDRESS, '[address]').slice(0, 500);
    log.warn({ mail: String(row.id), kind: row.kind, attempt: row.attempts, last, err: logged }, `an e-mail could not be ${stage}`);
    return repo.failed(row, reason, last ? null : backoff);
  }

  /** The message a row tells, or why it is settled unsent. */
  async function prepare(row: ClaimedMail) {
    const addressed = await repo.address(row);
    if (!addressed) return { unsent: 'Not sent: what it told of no longer exists.' };
    if (addressed.skip) return { unsent: `Not sent: ${addressed.skip}` };
    const unsubscribe =
      addressed.list && unsubscribeUrls(settings.publicUrl, settings.secret, addressed.list.clientId, addressed.list.list);
    const mail = renderMail(addressed.facts, settings.publicUrl, unsubscribe?.page);
    return {
      message: {
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
      },
    };
  }

  async function deliver(row: ClaimedMail, claimedAt: number) {
    if (Date.now() - row.queued_at.getTime() > MAX_AGE_MS) return repo.settled(row, 'Not sent: it waited more than 3 days to be sent.');
    let prepared: Awaited<ReturnType<typeof prepare>>;
    try {
      prepared = await prepare(row);
    } catch (error) {
      return failed(row, error, 'prepared');
    }
    if (!prepared.message) return repo.settled(row, prepared.unsent);
    try {
      const left = claimedAt + (settings.sendDeadlineMs ?? SEND_DEADLINE_MS) - Date.now();
      await transport.sendMail({ ...prepared.message, signal: AbortSignal.timeout(Math.max(left, 0)) });
    } catch (error) {
      return failed(row, error, 'sent');
    }
    return repo.settled(row);
  }

  return {
    /**
     * Sends what is due until nothing is, or until `keepGoing` says to stop (a shutdown: a backlog after
     * an SMTP outage would outlast its grace, and a message cut mid-send goes again when its lease ends);
     * answers how many rows it settled or failed.
     */
    async drain(keepGoing: () => boolean = () => true): Promise<number> {
      let handled = 0;
      while (keepGoing()) {
        const rows = await repo.claim(BATCH, LEASE_MS);
        const claimedAt = Date.now();
        if (!rows.length) return handled;
        for (const row of rows) {
          await deliver(row, claimedAt).catch((error: Error) =>
            log.error({ err: error, mail: String(row.id) }, 'an outbox row could not be settled'),
          );
        }
        handled += rows.length;
      }
      return handled;
    },
  };
}

export type MailSender = ReturnType<typeof mailSender>;
