// The outbox as the sender and the Admin's dead-letter screen read and write it (mail_outbox). Rows
// are written by the code (or the trigger) that makes the change they tell, in its transaction.
import { STOCKLESS_STATUSES } from '@bookshop/rules';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../plugins/prisma.ts';
import type { MailFacts, MailKind, OrderFacts } from './mail-templates.ts';

export interface ClaimedMail {
  id: bigint;
  kind: MailKind;
  client_id: number | null;
  employee_id: number | null;
  order_id: number | null;
  copy_id: number | null;
  contact_message_id: number | null;
  /** What a row tells that its ids do not: an order's status and reason, or an e-mail change's two addresses. */
  payload: { status?: string; reason?: string | null; previousAddress?: string; newAddress?: string } | null;
  attempts: number;
  /** When it was written, or an Admin last sent it again (a dead letter): its age counts from then. */
  queued_at: Date;
  /** The lease this claim holds: a later write about the row is this sender's only while it still holds it. */
  claimed_until: Date;
}

/** Who a message goes to, what it says, and whether it may be turned off (and by whom). */
export interface Addressed {
  to: { name: string; address: string };
  facts: MailFacts;
  /** The client and the list a one-click unsubscribe turns off, for the kinds that have one. */
  list?: { clientId: number; list: 'status' | 'back_in_stock' };
  /** Why it is not sent after all (the client turned it off). */
  skip?: string;
}

/** The columns a row of the outbox is written with. */
export type MailRow = Pick<
  Prisma.MailOutboxUncheckedCreateInput,
  'kind' | 'clientId' | 'employeeId' | 'orderId' | 'copyId' | 'contactMessageId'
>;

const orderFacts = async (db: Db, orderId: number) => {
  const order = await db.order.findUnique({
    where: { id: orderId },
    select: {
      id: true,
      status: true,
      shipmentAddress: true,
      totalQuantity: true,
      totalPrice: true,
      client: { select: { id: true, firstName: true, lastName: true, account: true, statusEmails: true } },
      items: { select: { name: true, quantity: true, unitPrice: true }, orderBy: { id: 'asc' } },
    },
  });
  if (!order) return null;
  const facts: OrderFacts = {
    id: order.id,
    status: order.status,
    shipmentAddress: order.shipmentAddress,
    totalQuantity: order.totalQuantity,
    totalPrice: order.totalPrice.toFixed(2),
    items: order.items.map((i) => ({ name: i.name, quantity: i.quantity, unitPrice: i.unitPrice.toFixed(2) })),
  };
  return { facts, client: order.client };
};

/** The client or the employee whose password a row's notice is about, with the address they sign in with; null when gone. */
const passwordOwner = async (db: Db, row: ClaimedMail) => {
  const name = { firstName: true, lastName: true } as const;
  if (row.client_id !== null) {
    const client = await db.client.findUnique({ where: { id: row.client_id }, select: { ...name, account: true } });
    return client && { ...client, address: client.account, audience: 'client' as const };
  }
  if (row.employee_id === null) return null;
  const employee = await db.employee.findUnique({ where: { id: row.employee_id }, select: { ...name, email: true } });
  return employee && { ...employee, address: employee.email, audience: 'employee' as const };
};

export function mailRepository(db: Db) {
  return {
    /** Claims up to `batch` due rows for `leaseMs`: rows another sender holds are skipped, never waited for. */
    claim: (batch: number, leaseMs: number) =>
      db.$queryRaw<ClaimedMail[]>`
        UPDATE mail_outbox m SET claimed_until = localtimestamp + ${leaseMs} * interval '1 millisecond', attempts = m.attempts + 1
        WHERE m.id IN (
          SELECT id FROM mail_outbox
          WHERE sent_at IS NULL AND dead_at IS NULL AND next_attempt_at <= localtimestamp
            AND (claimed_until IS NULL OR claimed_until < localtimestamp)
          ORDER BY next_attempt_at, id LIMIT ${batch} FOR UPDATE SKIP LOCKED)
        RETURNING m.id, m.kind, m.client_id, m.employee_id, m.order_id, m.copy_id, m.contact_message_id, m.payload, m.attempts,
          coalesce(m.requeued_at, m.created_at) AS queued_at, m.claimed_until`,

    /** The recipient and the facts of a claimed row, or null when what it tells is gone (deleted since). */
    async address(row: ClaimedMail): Promise<Addressed | null> {
      const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;
      switch (row.kind) {
        case 'order_placed':
        case 'order_status': {
          const found = row.order_id === null ? null : await orderFacts(db, row.order_id);
          if (!found) return null;
          const to = { name: fullName(found.client), address: found.client.account };
          if (row.kind === 'order_placed') {
            // Cancelled (or failed) before its confirmation went (the sender's poll, an SMTP outage): a
            // "we will send it" after the cancellation's news would tell the client the opposite.
            const ended = STOCKLESS_STATUSES.includes(found.facts.status);
            return {
              to,
              facts: { kind: 'order_placed', name: to.name, order: found.facts },
              ...(ended ? { skip: `The order was ${found.facts.status} before its confirmation went.` } : {}),
            };
          }
          const status = row.payload?.status ?? found.facts.status;
          // Held by a sender when a newer change was written (its trigger keeps a row being sent), then
          // tried again after that newer one: it would tell the client a status the order has left.
          const replaced =
            (await db.mailOutbox.count({ where: { orderId: found.facts.id, kind: 'order_status', id: { gt: row.id } } })) > 0;
          return {
            to,
            facts: { kind: 'order_status', name: to.name, order: found.facts, status, reason: row.payload?.reason ?? null },
            // A cancellation always goes: it is about money. Other status news can be turned off.
            ...(status === 'cancelled' ? {} : { list: { clientId: found.client.id, list: 'status' as const } }),
            ...(status !== 'cancelled' && !found.client.statusEmails ? { skip: 'The client turned order status e-mails off.' } : {}),
            ...(replaced ? { skip: 'A newer status e-mail of the order replaced it.' } : {}),
          };
        }
        case 'back_in_stock': {
          if (row.client_id === null || row.copy_id === null) return null;
          const [client, copy] = await Promise.all([
            db.client.findUnique({
              where: { id: row.client_id },
              select: { firstName: true, lastName: true, account: true, backInStockEmails: true },
            }),
            db.bookCopy.findUnique({ where: { id: row.copy_id }, select: { book: { select: { name: true } } } }),
          ]);
          if (!client || !copy) return null;
          const to = { name: fullName(client), address: client.account };
          return {
            to,
            facts: { kind: 'back_in_stock', name: to.name, copyId: row.copy_id, bookName: copy.book.name },
            list: { clientId: row.client_id, list: 'back_in_stock' },
            ...(client.backInStockEmails ? {} : { skip: 'The client turned back-in-stock e-mails off.' }),
          };
        }
        case 'contact_received': {
          if (row.contact_message_id === null) return null;
          const message = await db.contactMessage.findUnique({ where: { id: row.contact_message_id }, select: { account: true } });
          if (!message) return null;
          // Nothing the form was given but the address: the form takes anyone's, so a receipt that
          // repeated a name or the message (a link, an offer) carried a stranger's words to whoever they
          // named, from the shop's own domain.
          return { to: { name: '', address: message.account }, facts: { kind: 'contact_received' } };
        }
        case 'password_changed': {
          const owner = await passwordOwner(db, row);
          if (!owner) return null;
          const name = fullName(owner);
          return { to: { name, address: owner.address }, facts: { kind: 'password_changed', name, audience: owner.audience } };
        }
        case 'email_changed': {
          const { previousAddress, newAddress } = row.payload ?? {};
          if (row.employee_id === null || !previousAddress || !newAddress) return null;
          const employee = await db.employee.findUnique({ where: { id: row.employee_id }, select: { firstName: true, lastName: true } });
          if (!employee) return null;
          const name = fullName(employee);
          // To the old address: its owner is the one to hear of it, whoever made the change.
          return { to: { name, address: previousAddress }, facts: { kind: 'email_changed', name, newAddress } };
        }
      }
    },

    /** Sent, or settled without sending (`note` says why); only while `row`'s lease is still this sender's. */
    settled: (row: ClaimedMail, note: string | null = null) =>
      db.$executeRaw`
        UPDATE mail_outbox SET sent_at = localtimestamp, claimed_until = NULL, last_error = ${note}
        WHERE id = ${row.id} AND claimed_until = ${row.claimed_until}`,

    /** A failed try: due again after `retryInMs`, or a dead letter when it was the last; only while the lease holds. */
    failed: (row: ClaimedMail, error: string, retryInMs: number | null) =>
      retryInMs === null
        ? db.$executeRaw`
            UPDATE mail_outbox SET dead_at = localtimestamp, claimed_until = NULL, last_error = ${error}
            WHERE id = ${row.id} AND claimed_until = ${row.claimed_until}`
        : db.$executeRaw`
            UPDATE mail_outbox SET next_attempt_at = localtimestamp + ${retryInMs} * interval '1 millisecond', claimed_until = NULL, last_error = ${error}
            WHERE id = ${row.id} AND claimed_until = ${row.claimed_until}`,

    async deadLetters(skip: number, take: number) {
      const where = { deadAt: { not: null }, sentAt: null } satisfies Prisma.MailOutboxWhereInput;
      const [total, letters] = await Promise.all([
        db.mailOutbox.count({ where }),
        db.mailOutbox.findMany({
          where,
          orderBy: { id: 'desc' },
          skip,
          take,
          select: {
            id: true,
            kind: true,
            clientId: true,
            employeeId: true,
            orderId: true,
            createdAt: true,
            attempts: true,
            deadAt: true,
            lastError: true,
          },
        }),
      ]);
      // The outbox's CHECK constraint holds kind to MAIL_KINDS (tested in mail.test.ts).
      return { total, letters: letters.map((letter) => ({ ...letter, kind: letter.kind as MailKind })) };
    },

    /**
     * A dead letter back in the queue, due now with its tries and its age counted afresh (the Admin
     * wants it sent, however long the outage was): its kind, or null when there is no such dead letter.
     * `recorded` stores who asked, in the same transaction: a retry is never sent unrecorded.
     */
    retry: (id: bigint, recorded: (tx: Prisma.TransactionClient, kind: string) => Promise<void>) =>
      db.$transaction(async (tx) => {
        const [letter] = await tx.mailOutbox.updateManyAndReturn({
          where: { id, deadAt: { not: null }, sentAt: null },
          data: { deadAt: null, attempts: 0, nextAttemptAt: new Date(), requeuedAt: new Date(), claimedUntil: null },
          select: { kind: true },
        });
        if (letter) await recorded(tx, letter.kind);
        return letter?.kind ?? null;
      }),

    /** One-click unsubscribe: the client stops getting this list. */
    unsubscribe: (clientId: number, list: 'status' | 'back_in_stock') =>
      db.client.updateMany({ where: { id: clientId }, data: list === 'status' ? { statusEmails: false } : { backInStockEmails: false } }),
  };
}

export type MailRepository = ReturnType<typeof mailRepository>;
