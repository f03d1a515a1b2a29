// The shop writes to its customers over real SMTP: each e-mail is an outbox row written with what it
// tells, a sender drains it (two instances never send one twice), retries a refusing server, and
// leaves a dead letter an Admin can retry; status and back-in-stock e-mails carry a one-click
// unsubscribe (RFC 8058). A real SMTP server (smtp-server) receives, mailparser reads.
import { afterAll, describe, expect, it } from 'vitest';
import { startMailCatcher } from '../../scripts/lib/mail-catcher.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { MAIL_KINDS } from '../src/modules/mail/mail-templates.ts';
import { createTestApp, DEMO } from './helpers.ts';

const catcher = await startMailCatcher();
afterAll(() => catcher.stop());
const mailEnv = {
  SMTP_URL: catcher.smtpUrl,
  MAIL_FROM: 'Bookshop <orders@bookshop.test>',
  PUBLIC_URL: 'https://shop.example.com',
  // The tests drain the outbox themselves, and retry at once.
  MAIL_POLL_MS: '600000',
  MAIL_RETRY_BASE_MS: '1',
  MAIL_MAX_ATTEMPTS: '3',
};
const t = await createTestApp({ env: mailEnv });
const admin = await t.login(DEMO.admin);
await t.app.mail.drain();

const outbox = (where = 'true') =>
  t.db.query<{ id: string; kind: string; attempts: number; sent_at: Date | null; dead_at: Date | null; last_error: string | null }>(
    `SELECT * FROM mail_outbox WHERE ${where} ORDER BY id`,
  );
const mailTo = (address: string) => catcher.messages.filter((m) => m.to.includes(address));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Staff set an order's status, as the Orders screen's buttons do; the change is made. */
const setStatus = async (orderId: number, status: string) =>
  expect(
    (await t.app.inject({ method: 'PUT', url: `/api/employee/order/set-status/${orderId},${status}`, headers: { cookie: admin } }))
      .statusCode,
  ).toBe(200);
/** As if ten minutes had passed since the order's status e-mails were sent or written: the next may go. */
const tenMinutesOn = (orderId: number) =>
  t.db.query(
    `UPDATE mail_outbox SET sent_at = sent_at - interval '10 minutes', next_attempt_at = next_attempt_at - interval '10 minutes'
     WHERE order_id = $1 AND kind = 'order_status'`,
    [orderId],
  );

/** A contact message from `account`: the simplest e-mail the shop writes. */
const contact = (account: string, message = 'Hello there') =>
  t.app.inject({
    method: 'POST',
    url: '/api/public/contact/',
    payload: { userName: 'Ann Reader', account, message },
    remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });

/** A client's order of one copy, through the storefront's own calls. */
async function order(client: { cookie: string }, units = 2) {
  const [copy] = await t.db.query<{ id: number; price: string }>(
    'SELECT id, price::text FROM book_copies WHERE is_available AND quantity > 5 ORDER BY id LIMIT 1',
  );
  const line = (await t.app.inject({ method: 'POST', url: `/api/client/cart/${copy!.id}`, headers: { cookie: client.cookie } })).json()
    .data;
  await t.app.inject({
    method: 'PUT',
    url: '/api/client/cart/',
    headers: { cookie: client.cookie },
    payload: { cartItemId: line, quantity: units },
  });
  const total = Math.round(Number(copy!.price) * 100 * units) / 100;
  return { line, total, placed: await t.checkout(client.cookie, { cartItemsIds: [line], totalPrice: total, totalQuantity: units }) };
}

describe('order e-mails', () => {
  it('a checkout sends exactly one confirmation, with the order number, the lines, the totals, the address and a link to My Orders', async () => {
    const client = await t.newClient({ firstName: 'Olive', lastName: 'Order' });
    const { total, placed } = await order(client, 2);
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json().data.id as number;
    await t.app.mail.drain();
    await t.app.mail.drain();
    const mails = mailTo(client.account);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!.parsed;
    expect(mail.subject).toBe(`Your order #${orderId} at Bookshop`);
    expect(mail.from?.value[0]).toMatchObject({ name: 'Bookshop', address: 'orders@bookshop.test' });
    expect(mail.text).toContain('Hello Olive Order,');
    expect(mail.text).toContain(`Total  2  $${total.toFixed(2)}`);
    expect(mail.text).toContain('1 Main Street');
    expect(mail.text).toContain('https://shop.example.com/orders');
    expect(mail.html).toContain(`$${total.toFixed(2)}`);
    expect(mail.headerLines.some((h) => h.key === 'list-unsubscribe')).toBe(false); // confirmations always go
  });

  it('a checkout that is refused writes no e-mail', async () => {
    const client = await t.newClient();
    const { line } = await order(client, 1).then(async (o) => o);
    const before = (await outbox()).length;
    const refused = await t.checkout(client.cookie, { cartItemsIds: [line], totalPrice: 0.01, totalQuantity: 9 });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect((await outbox()).length).toBe(before);
  });

  it('a status change is an e-mail with a one-click unsubscribe; after it, status e-mails stop (a cancellation would still go)', async () => {
    const client = await t.newClient({ firstName: 'Stan', lastName: 'Status' });
    const orderId = (await order(client, 1)).placed.json().data.id as number;
    await setStatus(orderId, 'Processing');
    await t.app.mail.drain();
    const status = mailTo(client.account).find((m) => m.parsed.subject === `Your order #${orderId} is being prepared`)!;
    expect(status).toBeDefined();
    const header = (key: string) => status.parsed.headerLines.find((h) => h.key === key)?.line ?? '';
    const oneClick = { url: /<([^>]+)>/.exec(header('list-unsubscribe'))?.[1] ?? '' };
    expect(oneClick.url).toMatch(/^https:\/\/shop\.example\.com\/api\/public\/unsubscribe\?client=\d+&list=status&token=/);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(status.parsed.text).toMatch(/Unsubscribe: https:\/\/shop\.example\.com\/unsubscribe\?/);

    const path = oneClick.url.replace('https://shop.example.com', '');
    /** The mail program's one-click POST, form-encoded or multipart (RFC 8058 prefers the latter). */
    const postOneClick = (url: string, encoding: 'form' | 'multipart' = 'form') =>
      t.app.inject({
        method: 'POST',
        url,
        ...(encoding === 'form'
          ? { payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } }
          : {
              payload: '--b0undary\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b0undary--\r\n',
              headers: { 'content-type': 'multipart/form-data; boundary=b0undary' },
            }),
      });
    expect((await postOneClick(path.replace(/token=[^&]+/, 'token=forged'))).statusCode).toBe(400);
    const multipart = await postOneClick(path, 'multipart');
    expect(multipart.statusCode, multipart.body).toBe(200);
    expect(await t.db.query('SELECT status_emails FROM clients WHERE account = $1', [client.account])).toEqual([{ status_emails: false }]);
    // Form-encoded too (again: the same answer).
    const done = await postOneClick(path);
    expect(done.statusCode, done.body).toBe(200);

    const sent = mailTo(client.account).length;
    await tenMinutesOn(orderId);
    await setStatus(orderId, 'Shipped');
    await t.app.mail.drain();
    expect(mailTo(client.account)).toHaveLength(sent);
    expect((await outbox(`order_id = ${orderId} AND kind = 'order_status'`)).at(-1)!.last_error).toBe(
      'Not sent: The client turned order status e-mails off.',
    );
  });
  it("staff flipping an order's status in a loop: one e-mail waits, with the last status, and goes ten minutes after the last one sent", async () => {
    const client = await t.newClient({ firstName: 'Flo', lastName: 'Flip' });
    const orderId = (await order(client, 1)).placed.json().data.id as number;
    const subjects = () => mailTo(client.account).map((m) => m.parsed.subject);
    await setStatus(orderId, 'Processing');
    await t.app.mail.drain();
    expect(subjects()).toEqual([`Your order #${orderId} at Bookshop`, `Your order #${orderId} is being prepared`]);

    for (let flip = 0; flip < 11; flip++) await setStatus(orderId, flip % 2 ? 'Processing' : 'Shipped');
    await t.app.mail.drain();
    expect(subjects()).toHaveLength(2);
    const waiting = await t.db.query<{ payload: { status: string }; wait: number }>(
      `SELECT payload, extract(epoch FROM next_attempt_at - (SELECT max(sent_at) FROM mail_outbox WHERE order_id = $1 AND kind = 'order_status'))::int AS wait
       FROM mail_outbox WHERE order_id = $1 AND kind = 'order_status' AND sent_at IS NULL`,
      [orderId],
    );
    expect(waiting).toEqual([{ payload: { status: 'Shipped', reason: null }, wait: 600 }]);

    await tenMinutesOn(orderId);
    await t.app.mail.drain();
    expect(subjects()).toEqual([
      `Your order #${orderId} at Bookshop`,
      `Your order #${orderId} is being prepared`,
      `Your order #${orderId} is on its way`,
    ]);
  });
  it('a status e-mail tried again after a newer one was written is not sent: the client never hears a status the order has left', async () => {
    const client = await t.newClient({ firstName: 'Stella', lastName: 'Stale' });
    const orderId = (await order(client, 1)).placed.json().data.id as number;
    const subjects = () => mailTo(client.account).map((m) => m.parsed.subject);
    await setStatus(orderId, 'Processing');
    await t.app.mail.drain();

    // Shipped's e-mail is held by a sender (its send under way) when the order goes back to Processing…
    await setStatus(orderId, 'Shipped');
    await t.db.query(
      `UPDATE mail_outbox SET claimed_until = timezone('UTC', now()) + interval '2 minutes'
       WHERE order_id = $1 AND kind = 'order_status' AND sent_at IS NULL`,
      [orderId],
    );
    await setStatus(orderId, 'Processing');
    // …and that send fails, so it is tried again when the newer one is due too.
    await t.db.query(
      `UPDATE mail_outbox SET claimed_until = NULL, next_attempt_at = next_attempt_at - interval '10 minutes'
       WHERE order_id = $1 AND kind = 'order_status' AND sent_at IS NULL`,
      [orderId],
    );
    await t.app.mail.drain();
    expect(subjects()).toEqual([
      `Your order #${orderId} at Bookshop`,
      `Your order #${orderId} is being prepared`,
      `Your order #${orderId} is being prepared`,
    ]);
    const [stale] = await outbox(`order_id = ${orderId} AND kind = 'order_status' AND payload->>'status' = 'Shipped'`);
    expect(stale!.last_error).toBe('Not sent: A newer status e-mail of the order replaced it.');
  });

  it('a cancellation goes at once, within ten minutes of the last status e-mail sent', async () => {
    const client = await t.newClient({ firstName: 'Cora', lastName: 'Cancel' });
    const orderId = (await order(client, 1)).placed.json().data.id as number;
    await setStatus(orderId, 'Processing');
    await t.app.mail.drain();
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/employee/order/${orderId}/cancel`,
      headers: { cookie: admin },
      payload: { reason: 'Out of print' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await t.app.mail.drain();
    expect(mailTo(client.account).map((m) => m.parsed.subject)).toEqual([
      `Your order #${orderId} at Bookshop`,
      `Your order #${orderId} is being prepared`,
      `Your order #${orderId} is cancelled`,
    ]);
  });

  it('an order cancelled before its confirmation went gets the cancellation only, not a "we will send it" after it', async () => {
    const client = await t.newClient({ firstName: 'Quinn', lastName: 'Quick' });
    const orderId = (await order(client, 1)).placed.json().data.id as number;
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/client/orders/${orderId}/cancel`,
      headers: { cookie: client.cookie },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await t.app.mail.drain();
    expect(mailTo(client.account).map((m) => m.parsed.subject)).toEqual([`Your order #${orderId} is cancelled`]);
    expect((await outbox(`order_id = ${orderId} AND kind = 'order_placed'`))[0]!.last_error).toBe(
      'Not sent: The order was cancelled before its confirmation went.',
    );
  });
});

describe('back in stock', () => {
  it('a restock e-mails the clients who wish for the copy, with a link to the book and a one-click unsubscribe', async () => {
    const fan = await t.newClient({ firstName: 'Wendy', lastName: 'Wish' });
    const [copy] = await t.db.query<{ id: number }>('INSERT INTO book_copies (book_id, quantity, price) VALUES (1, 0, 12.5) RETURNING id');
    const [book] = await t.db.query<{ name: string }>('SELECT name FROM books WHERE id = 1');
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/client/wishlist/${copy!.id}`, headers: { cookie: fan.cookie } })).statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/employee/low-stock/${copy!.id}/restock`,
          headers: { cookie: admin },
          payload: { add: 3 },
        })
      ).statusCode,
    ).toBe(200);
    await t.app.mail.drain();
    const [mail] = mailTo(fan.account);
    expect(mail!.parsed.subject).toBe(`${book!.name} is back in stock`);
    expect(mail!.parsed.text).toMatch(new RegExp(`https://shop\\.example\\.com/books/${copy!.id}-`));
    expect(mail!.parsed.headerLines.some((h) => h.key === 'list-unsubscribe' && h.line.includes('list=back_in_stock'))).toBe(true);
  });
});

describe('the sender', () => {
  it('two instances draining one outbox send each message once', async () => {
    const second = await buildApp(
      loadConfig({ NODE_ENV: 'test', DATABASE_URL: t.db.url, FIREBASE_AUTH_EMULATOR_HOST: t.config.firebaseAuthEmulatorHost!, ...mailEnv }),
    );
    await second.ready();
    try {
      const addresses = Array.from({ length: 30 }, (_, i) => `twice-${i}-${Date.now()}@example.com`);
      for (const address of addresses) expect((await contact(address)).statusCode).toBe(200);
      await Promise.all([t.app.mail.drain(), second.mail.drain(), t.app.mail.drain(), second.mail.drain()]);
      for (const address of addresses) expect(mailTo(address), address).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('a server that refuses the first two tries still gets the message; one down for good leaves a dead letter the Admin retries', async () => {
    catcher.refusing.next = 2;
    const patient = `patient-${Date.now()}@example.com`;
    await contact(patient);
    for (let i = 0; i < 3 && !mailTo(patient).length; i++) {
      await t.app.mail.drain();
      await pause(20);
    }
    expect(mailTo(patient)).toHaveLength(1);
    expect(mailTo(patient)[0]!.parsed.subject).toBe('We received your message');

    catcher.refusing.all = true;
    const unlucky = `unlucky-${Date.now()}@example.com`;
    await contact(unlucky);
    for (let i = 0; i < 5; i++) {
      await t.app.mail.drain();
      await pause(20);
    }
    const [dead] = await outbox(`kind = 'contact_received' AND dead_at IS NOT NULL AND sent_at IS NULL`);
    expect(dead).toMatchObject({ attempts: 3, last_error: expect.stringMatching(/Try again later/) });
    const letters = (await t.app.inject({ method: 'GET', url: '/api/employee/mail/dead-letters', headers: { cookie: admin } })).json().data
      .letters;
    expect(letters[0]).toMatchObject({ id: Number(dead!.id), kind: 'contact_received', attempts: 3 });
    const seller = await t.login(DEMO.seller);
    expect((await t.app.inject({ method: 'GET', url: '/api/employee/mail/dead-letters', headers: { cookie: seller } })).statusCode).toBe(
      403,
    );

    catcher.refusing.all = false;
    // A retry whose audit row cannot be stored is not made: the letter stays dead, never sent unrecorded.
    await t.db.query(`
      CREATE FUNCTION refuse_events() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'events refused on purpose'; END $$;
      CREATE TRIGGER refuse_events BEFORE INSERT ON security_events FOR EACH ROW EXECUTE FUNCTION refuse_events();`);
    try {
      const unrecorded = await t.app.inject({
        method: 'POST',
        url: `/api/employee/mail/dead-letters/${dead!.id}/retry`,
        headers: { cookie: admin },
      });
      expect(unrecorded.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await t.db.query('DROP TRIGGER refuse_events ON security_events; DROP FUNCTION refuse_events();');
    }
    expect((await outbox(`id = ${Number(dead!.id)}`))[0]).toMatchObject({ dead_at: expect.anything(), attempts: 3 });
    // The outage lasted past the three days a message may wait: the Admin's retry still sends it.
    await t.db.query("UPDATE mail_outbox SET created_at = created_at - interval '4 days' WHERE id = $1", [dead!.id]);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/employee/mail/dead-letters/${dead!.id}/retry`, headers: { cookie: admin } }))
        .statusCode,
    ).toBe(200);
    await t.app.mail.drain();
    expect(mailTo(unlucky)).toHaveLength(1);
    // The audit log says which Admin sent it again, and what it was (never its recipient or text).
    const [{ id: adminId }] = (await t.db.query<{ id: number }>('SELECT id FROM employees WHERE email = $1', [DEMO.admin.account])) as [
      { id: number },
    ];
    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/employee/audit-log/?type=dead_letter_retried',
      headers: { cookie: admin },
    });
    expect(audit.json().data.entries).toEqual([
      expect.objectContaining({
        actor: `employee:${adminId}`,
        entity: 'MailOutbox',
        entityId: dead!.id,
        details: { kind: 'contact_received' },
      }),
    ]);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/employee/mail/dead-letters/${dead!.id}/retry`, headers: { cookie: admin } }))
        .statusCode,
    ).toBe(404);
  });

  it('the contact form sends one address at most two receipts a day, whoever writes: no one can make the shop mail anyone', async () => {
    const target = `target-${Date.now()}@example.com`;
    for (let i = 0; i < 4; i++) expect((await contact(target, `Message ${i}`)).statusCode).toBe(200);
    await t.app.mail.drain();
    expect(mailTo(target)).toHaveLength(2);
    expect((await t.db.query('SELECT 1 FROM contact_messages WHERE account = $1', [target])).length).toBe(4);
  });

  it('one mailbox gets its two receipts a day however its address is spelled, and a receipt repeats nothing the form was given but the address', async () => {
    const box = `box${Date.now()}`;
    const spellings = [`${box}@example.com`, `${box}+1@example.com`, `${box.toUpperCase()}+news@Example.com`, `${box}+2@example.com`];
    for (const account of spellings) expect((await contact(account)).statusCode).toBe(200);
    // Dots are the same mailbox only where the provider says so.
    const gmail = [`${box}.a@gmail.com`, `${box}a@googlemail.com`, `${box}.a+x@gmail.com`];
    for (const account of gmail) expect((await contact(account)).statusCode).toBe(200);
    await t.app.mail.drain();
    const received = (addresses: string[]) =>
      catcher.messages.filter((m) => m.to.some((to) => addresses.some((a) => a.toLowerCase() === to.toLowerCase())));
    expect(received(spellings)).toHaveLength(2);
    expect(received(gmail)).toHaveLength(2);

    const spam = { userName: 'Win a prize at evil.example', message: 'Claim it: https://evil.example/x' };
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/public/contact/',
          payload: { ...spam, account: `spam-${box}@example.com` },
          remoteAddress: '10.8.0.1',
        })
      ).statusCode,
    ).toBe(200);
    await t.app.mail.drain();
    const [receipt] = mailTo(`spam-${box}@example.com`);
    expect(receipt!.parsed.text!.split('\n')[0]).toBe('Hello,');
    for (const part of [
      receipt!.parsed.text!,
      receipt!.parsed.html as string,
      receipt!.parsed.headerLines.find((h) => h.key === 'to')?.line ?? '',
    ]) {
      expect(part).not.toContain('evil.example');
      expect(part).not.toContain('prize');
    }
  });

  it("quotes, a trailing dot or an international domain's Unicode spelling make no other mailbox: still two receipts a day", async () => {
    const box = `q${Date.now()}`;
    const receipts = async (accounts: string[]) =>
      (
        await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM mail_outbox m JOIN contact_messages c ON c.id = m.contact_message_id
           WHERE m.kind = 'contact_received' AND c.account = ANY($1::text[])`,
          [accounts],
        )
      )[0]!.n;
    const spellings = [`"${box}"@example.com`, `${box}@example.com.`, `${box}@EXAMPLE.com..`, `"${box}+x"@example.com`];
    const international = [`${box}@bücher.example`, `${box}@xn--bcher-kva.example`, `${box}@BÜCHER.example.`];
    for (const account of [...spellings, ...international]) expect((await contact(account)).statusCode).toBe(200);
    expect(await receipts(spellings)).toBe(2);
    expect(await receipts(international)).toBe(2);
  });

  it('an address a mailer would deliver to another spelling (angle brackets, a control character, a list) is refused: no more receipts', async () => {
    const box = `v${Date.now()}`;
    const disguised = [
      `<${box}@example.com>`,
      `${box}@example.com>`,
      `<<${box}@example.com`,
      `${box}@example.com\u0001`,
      `${box}@example.com\u007f`,
    ];
    for (const account of [...disguised, `${box}@example.com, other@example.com`, `${box}@example.com;x@example.com`]) {
      const refused = await contact(account);
      expect(refused.statusCode, account).toBe(400);
      expect(refused.json().error.message).toBe('Invalid email format');
    }
    expect((await t.db.query("SELECT 1 FROM contact_messages WHERE account LIKE '%' || $1 || '%'", [box])).length).toBe(0);
  });

  it('a password change is a security notice to its owner', async () => {
    const client = await t.newClient({ firstName: 'Pat', lastName: 'Word' });
    const changed = await t.changeClientPassword(client.cookie, {
      oldPassword: DEMO.client.password,
      newPassword: 'A-much-better-passphrase-7',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await t.app.mail.drain();
    const [notice] = mailTo(client.account);
    expect(notice!.parsed.subject).toBe('Your Bookshop password was changed');
    expect(notice!.parsed.text).not.toContain('A-much-better-passphrase-7');
  });

  it("an employee's change of sign-in e-mail is a security notice to the old address, naming the new one; other changes send none", async () => {
    const before = `pat-${Date.now()}@bookshop.test`;
    const after = `pat-new-${Date.now()}@bookshop.test`;
    const pat = await t.newEmployee({ email: before, firstName: 'Pat', lastName: 'Staff' });
    const cookie = await t.login(pat);
    const person = (email: string, phoneNumber = '0555000000') => ({
      firstName: 'Pat',
      lastName: 'Staff',
      gender: 'Female',
      birthDate: '1990-01-01',
      email,
      phoneNumber,
      address: '1 Main Street',
    });
    const save = (payload: ReturnType<typeof person>) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/employee/',
        headers: { cookie },
        payload: { ...payload, currentPassword: pat.password },
      });

    const first = await save(person(before, '0555000009'));
    expect(first.statusCode, first.body).toBe(200);
    await t.app.mail.drain();
    expect(mailTo(before)).toHaveLength(0);

    const changed = await save(person(after.toUpperCase()));
    expect(changed.statusCode, changed.body).toBe(200);
    await t.app.mail.drain();
    const [notice, ...more] = mailTo(before);
    expect(more).toHaveLength(0);
    expect(notice!.parsed.subject).toBe('Your Bookshop sign-in e-mail was changed');
    // Named by its first letter and domain: enough for the owner, nothing whole for a stranger's inbox.
    expect(notice!.parsed.text).toContain('was just changed to p***@bookshop.test.');
    expect(notice!.parsed.text).not.toContain(after);
    expect(notice!.parsed.text).toContain('Hello Pat Staff,');
    // Nothing to the new address: whoever changed it already knows, and it may not be the owner's.
    expect(mailTo(after)).toHaveLength(0);
  });

  it("an employee's e-mail changes three times a day at most, and a refused change (taken, or one too many) writes no notice", async () => {
    const lee = await t.newEmployee({ firstName: 'Lee', lastName: 'Staff' });
    const { id } = lee;
    const cookie = await t.login(lee);
    const save = (email: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/employee/',
        headers: { cookie },
        payload: {
          firstName: 'Lee',
          lastName: 'Staff',
          gender: 'Female',
          birthDate: '1990-01-01',
          email,
          phoneNumber: '0555000000',
          address: '1 Main Street',
          currentPassword: lee.password,
        },
      });
    const notices = async () =>
      (await t.db.query(`SELECT 1 FROM mail_outbox WHERE kind = 'email_changed' AND employee_id = $1`, [id])).length;

    const taken = await save(DEMO.client.account);
    expect(taken.statusCode).toBe(409);
    expect(await notices()).toBe(0);
    for (const n of [1, 2]) expect((await save(`lee-${n}-${Date.now()}@bookshop.test`)).statusCode).toBe(200);
    // The third and last of the day, asked for three times at once: one is written, two are refused.
    const racing = [3, 4, 5].map((n) => `lee-${n}-${Date.now()}@bookshop.test`);
    const answers = await Promise.all(racing.map(save));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429, 429]);
    expect(await notices()).toBe(3);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json().error).toMatchObject({
      code: 'TOO_MANY_EMAIL_CHANGES',
      message: 'Your e-mail can be changed 3 times a day. Please try again later.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 60 * 60);
    // The e-mail is the one whose change was written; the rest of the information still saves.
    const [{ email }] = (await t.db.query<{ email: string }>('SELECT email FROM employees WHERE id = $1', [id])) as [{ email: string }];
    expect(email).toBe(racing[answers.findIndex((a) => a.statusCode === 200)]);
    expect((await save(email)).statusCode).toBe(200);
    expect((await save(`lee-6-${Date.now()}@bookshop.test`)).statusCode).toBe(429);
    expect(await notices()).toBe(3);
  });

  it('the outbox accepts exactly the kinds the code writes (its CHECK constraint and MAIL_KINDS name the same ones)', async () => {
    const [check] = await t.db.query<{ definition: string }>(
      "SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'mail_outbox_kind_known'",
    );
    const allowed = [...check!.definition.matchAll(/'([a-z_]+)'::text/g)].map((match) => match[1]).sort();
    expect(allowed).toEqual([...MAIL_KINDS].sort());
  });
});
