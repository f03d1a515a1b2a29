// Each limited route counts its own requests: one address that used up the contact form's hour can
// still ask for a password reset, and the limits of two routes never add up into one. The contact
// form also has a limit for the whole shop, which no number of addresses gets past.
import { expect, it } from 'vitest';
import { SHOP_CONTACT_MESSAGES_PER_HOUR, SHOP_CONTACT_RECEIPTS_PER_HOUR } from '../src/modules/contact/contact-service.ts';
import { ANONYMOUS_WRITES_PER_HOUR } from '../src/routes/public/contact.ts';
import { createTestApp } from './helpers.ts';

const t = await createTestApp();
const remoteAddress = '198.51.100.42';
const contact = () =>
  t.app.inject({
    method: 'POST',
    url: '/api/public/contact/',
    remoteAddress,
    payload: { userName: 'A reader', account: 'reader@example.com', message: 'Do you stock poetry?' },
  });
const resetRequest = () =>
  t.app.inject({ method: 'POST', url: '/api/public/password-reset/request', remoteAddress, payload: { account: 'nobody@example.com' } });

it("an address past the contact form's limit is still answered by another limited route, with that route's own count", async () => {
  for (let i = 0; i < ANONYMOUS_WRITES_PER_HOUR; i++) expect((await contact()).statusCode).toBe(200);
  const refused = await contact();
  expect(refused.statusCode).toBe(429);
  expect(refused.headers['retry-after']).toBeDefined();
  const reset = await resetRequest();
  expect(reset.statusCode, reset.body).toBe(200);
  const counters = await t.db.query<{ key: string }>('SELECT key FROM throttle_counters WHERE key LIKE $1 ORDER BY key', [
    `rate:%${remoteAddress}%`,
  ]);
  expect(counters.map((c) => c.key.replace(remoteAddress, '<address>'))).toEqual([
    'rate:POST:/api/public/contact:<address>',
    'rate:POST:/api/public/password-reset/request:<address>',
  ]);
});

it(`the whole shop takes ${SHOP_CONTACT_MESSAGES_PER_HOUR} contact messages and sends ${SHOP_CONTACT_RECEIPTS_PER_HOUR} receipts an hour, however many addresses send them`, async () => {
  // Each from an address of its own, as from a block of IPv6 /64s: no address reaches its own limit.
  let sent = 0;
  let refused: Awaited<ReturnType<typeof t.app.inject>> | undefined;
  for (let i = 0; !refused && i < 2 * SHOP_CONTACT_MESSAGES_PER_HOUR; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/public/contact/',
      remoteAddress: `2001:db8:${i.toString(16)}::1`,
      payload: { userName: 'A reader', account: `many-${i}@example.com`, message: 'Do you stock poetry?' },
    });
    if (res.statusCode === 200) sent++;
    else refused = res;
  }
  expect(refused?.statusCode).toBe(429);
  expect(refused!.json().error).toMatchObject({
    code: 'CONTACT_FORM_BUSY',
    message: 'The shop has received too many messages this hour. Please try again later.',
  });
  expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
  // What this file's tests sent before counts in the same hour: the shop holds exactly its hour's worth
  // (the demo's own messages aside).
  const [messages] = await t.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM contact_messages WHERE account = 'reader@example.com' OR account LIKE 'many-%@example.com'",
  );
  expect(messages!.n).toBe(SHOP_CONTACT_MESSAGES_PER_HOUR);
  expect(sent).toBeGreaterThan(0);
  // Each to a mailbox of its own, yet the shop sent its hour's receipts and no more: the rest were kept without one.
  const [receipts] = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM mail_outbox m JOIN contact_messages c ON c.id = m.contact_message_id
     WHERE m.kind = 'contact_received' AND (c.account = 'reader@example.com' OR c.account LIKE 'many-%@example.com')`,
  );
  expect(receipts!.n).toBe(SHOP_CONTACT_RECEIPTS_PER_HOUR);
});
