// A row the sender cannot even prepare (its facts cannot be read, or do not render) is a failed try
// like a refused send: due again after the backoff, then a dead letter the Admin sees, never claimed
// again and again, unseen, until it is too old to send. A send is cut at its deadline however slowly
// a server answers, and the log of a failed one names no recipient.
import { once } from 'node:events';
import net from 'node:net';
import nodemailer, { type Transporter } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import type { Addressed, ClaimedMail, MailRepository } from '../src/modules/mail/mail-repository.ts';
import { mailSender, SMTP_TIMEOUTS } from '../src/modules/mail/mail-sender.ts';

const settings = {
  from: 'Bookshop <orders@bookshop.test>',
  publicUrl: 'https://shop.example.com',
  secret: 's'.repeat(32),
  maxAttempts: 3,
  retryBaseMs: 1000,
};

/** An outbox's claim that hands out `row` once, then nothing. */
const claimsOnce = (row: object) => {
  let claimed = false;
  return async () => {
    if (claimed) return [];
    claimed = true;
    return [row];
  };
};

/** A sender over an outbox holding `row` once, whose facts fail to load; answers what it settled and failed. */
async function drainOne(attempts: number) {
  const row: ClaimedMail = {
    id: 7n,
    kind: 'order_placed',
    client_id: 1,
    employee_id: null,
    order_id: 1,
    copy_id: null,
    contact_message_id: null,
    payload: null,
    attempts,
    queued_at: new Date(),
    claimed_until: new Date(Date.now() + 60_000),
  };
  const failed: [bigint, string, number | null][] = [];
  const settled: bigint[] = [];
  const sent: unknown[] = [];
  const repo = {
    claim: claimsOnce(row),
    address: async () => {
      throw new Error('column "first_name" does not exist');
    },
    failed: async (r: ClaimedMail, error: string, retryInMs: number | null) => void failed.push([r.id, error, retryInMs]),
    settled: async (r: ClaimedMail) => void settled.push(r.id),
  } as unknown as MailRepository;
  const sender = mailSender(repo, { sendMail: async (m: unknown) => void sent.push(m) } as never, settings, {
    warn() {},
    error() {},
  } as never);
  await sender.drain();
  return { failed, settled, sent };
}

describe('a row whose e-mail cannot be prepared', () => {
  it('is a failed try, due again after the backoff', async () => {
    expect(await drainOne(2)).toEqual({ failed: [[7n, 'column "first_name" does not exist', 2000]], settled: [], sent: [] });
  });

  it('is a dead letter after its last try', async () => {
    expect((await drainOne(3)).failed).toEqual([[7n, 'column "first_name" does not exist', null]]);
  });
});

describe('a drain', () => {
  it('stops claiming when told to (a shutdown): the backlog is left due for the next instance, not outlasting the grace', async () => {
    let due = 10;
    let claims = 0;
    const repo = {
      claim: async () => {
        if (due === 0) return [];
        due--;
        claims++;
        return [{ id: BigInt(claims), kind: 'order_placed', order_id: 1, client_id: 1, attempts: 0, queued_at: new Date() }];
      },
      address: async () => {
        throw new Error('the facts cannot be read');
      },
      failed: async () => {},
    } as unknown as MailRepository;
    const sender = mailSender(repo, { sendMail: async () => {} } as never, settings, { warn() {}, error() {} } as never);
    expect(await sender.drain(() => claims < 3)).toBe(3);
    expect(due).toBe(7);
  });
});

/** A sender over an outbox holding one contact receipt to ann@example.com; answers what it failed and what it logged. */
async function sendOne(transport: Pick<Transporter, 'sendMail'>, sendDeadlineMs?: number) {
  const row = { id: 9n, kind: 'contact_received', attempts: 1, queued_at: new Date(), claimed_until: new Date(Date.now() + 60_000) };
  const failed: [bigint, string][] = [];
  const logged: unknown[] = [];
  const repo = {
    claim: claimsOnce(row),
    address: async (): Promise<Addressed> => ({
      to: { name: 'Ann Reader', address: 'ann@example.com' },
      facts: { kind: 'contact_received' },
    }),
    failed: async (r: ClaimedMail, error: string) => void failed.push([r.id, error]),
    settled: async () => {},
  } as unknown as MailRepository;
  const log = { warn: (...args: unknown[]) => void logged.push(args), error() {} };
  await mailSender(repo, transport, { ...settings, sendDeadlineMs }, log as never).drain();
  return { failed, logged };
}

describe('a send', () => {
  it('is cut at its deadline when a server answers too slowly, its connection closed, long before the lease could pass', async () => {
    // A server that greets, then never answers: each wait alone is within SMTP_TIMEOUTS (40 s).
    const server = net.createServer((socket) => socket.resume().write('220 slow.example.com ESMTP\r\n'));
    const closed = new Promise<void>((resolve) => server.on('connection', (socket) => socket.on('close', () => resolve())));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as net.AddressInfo;
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, ignoreTLS: true, ...SMTP_TIMEOUTS });
    try {
      const started = Date.now();
      const { failed } = await sendOne(transport, 300);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(failed).toEqual([[9n, expect.stringMatching(/abort/i)]]);
      await closed;
    } finally {
      server.close();
    }
  });

  it('refused, is logged without the address the refusal quotes; the dead-letter screen keeps the whole reason', async () => {
    const refusal = "Can't send mail - all recipients were rejected: 550 5.1.1 <ann@example.com>: Recipient address rejected";
    const { failed, logged } = await sendOne({
      sendMail: async () => {
        throw new Error(refusal);
      },
    });
    expect(failed).toEqual([[9n, refusal]]);
    expect(JSON.stringify(logged)).toContain('Recipient address rejected');
    expect(JSON.stringify(logged)).not.toContain('@');
  });
});
