// A row the sender cannot even prepare (its facts cannot be read, or do not render) is a failed try
// like a refused send: due again after the backoff, then a dead letter the Admin sees, never claimed
// again and again, unseen, until it is too old to send.
import { describe, expect, it } from 'vitest';
import type { ClaimedMail, MailRepository } from '../src/modules/mail/mail-repository.ts';
import { mailSender } from '../src/modules/mail/mail-sender.ts';

const settings = {
  from: 'Bookshop <orders@bookshop.test>',
  publicUrl: 'https://shop.example.com',
  secret: 's'.repeat(32),
  maxAttempts: 3,
  retryBaseMs: 1000,
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
    created_at: new Date(),
    claimed_until: new Date(Date.now() + 60_000),
  };
  let claimed = false;
  const failed: [bigint, string, number | null][] = [];
  const settled: bigint[] = [];
  const sent: unknown[] = [];
  const repo = {
    claim: async () => {
      if (claimed) return [];
      claimed = true;
      return [row];
    },
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
        return [{ id: BigInt(claims), kind: 'order_placed', order_id: 1, client_id: 1, attempts: 0, created_at: new Date() }];
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
