// Two API processes on one database, as behind a load balancer: nothing that must be shared lives in
// a process's memory. Calls are spread across both; a session, its revocation and the stock are the
// database's, so either instance gives the same answers.
import { beforeAll, expect, it } from 'vitest';
import { createBuyers, createCopy, type HttpClient, httpClient, type ServerProcess, signIn, startServerProcess } from './fault-helpers.ts';
import { createTestDatabase } from './helpers.ts';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let a: ServerProcess;
let b: ServerProcess;
beforeAll(async () => {
  db = await createTestDatabase();
  [a, b] = await Promise.all([startServerProcess(db.url), startServerProcess(db.url)]);
});

/** The same browser (its cookies) talking to the other instance. */
function sameBrowserOn(server: ServerProcess, browser: HttpClient) {
  const other = httpClient(server.url);
  other.useCookies(browser.cookies());
  return other;
}

it('a session made on one instance works on the other, and signing in there is not needed', async () => {
  const [account] = await createBuyers(db.query, 1);
  const onA = httpClient(a.url);
  await signIn(onA, account!);
  const onB = sameBrowserOn(b, onA);
  const me = await onB.call('GET', '/api/client/manage');
  expect(me.status).toBe(200);
  expect(me.body!.data).toMatchObject({ account });
  // A refresh on B rotates the session A then accepts.
  expect((await onB.call('POST', '/api/public/authentication/refresh-tokens/Client')).status).toBe(200);
  expect((await sameBrowserOn(a, onB).call('GET', '/api/client/manage')).status).toBe(200);
});

it('a spent refresh token presented on one instance (after the reuse interval) revokes the session on both', async () => {
  const [account] = await createBuyers(db.query, 1);
  const victim = httpClient(a.url);
  await signIn(victim, account!);
  const thief = sameBrowserOn(b, victim); // a copy of the cookies as they are now
  expect((await victim.call('POST', '/api/public/authentication/refresh-tokens/Client')).status).toBe(200);
  // Past the 30 s reuse interval, as api/test/accounts.test.ts ages it.
  await db.query(
    "UPDATE refresh_tokens SET used_at = now() - interval '31 seconds' WHERE used_at IS NOT NULL AND family_id IN (SELECT id FROM session_families WHERE subject_id = (SELECT id FROM clients WHERE account = $1))",
    [account],
  );
  expect((await thief.call('POST', '/api/public/authentication/refresh-tokens/Client')).status).toBe(401);
  // The rotated session of the victim is dead on both instances, access token included.
  expect((await victim.call('GET', '/api/client/manage')).status).toBe(401);
  expect((await sameBrowserOn(b, victim).call('GET', '/api/client/manage')).status).toBe(401);
  expect((await sameBrowserOn(b, victim).call('POST', '/api/public/authentication/refresh-tokens/Client')).status).toBe(401);
});

it('200 buyers for 5 copies, spread across both instances: exactly 5 orders, stock 0, every other buyer a clean 409', {
  timeout: 90_000,
}, async () => {
  const BUYERS = 200;
  const STOCK = 5;
  const copy = await createCopy(db.query, STOCK);
  const accounts = await createBuyers(db.query, BUYERS);
  const buyers = accounts.map((_, i) => httpClient((i % 2 ? b : a).url));
  // Sign-ins hash passwords: a few at a time, as real traffic would arrive.
  for (let i = 0; i < BUYERS; i += 8) {
    await Promise.all(buyers.slice(i, i + 8).map((buyer, j) => signIn(buyer, accounts[i + j]!)));
  }
  const lines = await Promise.all(buyers.map(async (buyer) => (await buyer.call('POST', `/api/client/cart/${copy}`)).body!.data as number));
  // Each buyer checks out on the instance it did not sign in on.
  const answers = await Promise.all(
    buyers.map((buyer, i) =>
      sameBrowserOn(i % 2 ? a : b, buyer).call('POST', '/api/client/orders/', {
        shipmentAddress: '1 Main Street',
        totalPrice: 10.5,
        totalQuantity: 1,
        cartItemsIds: [lines[i]],
      }),
    ),
  );
  const statuses = answers.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(STOCK);
  expect(statuses.filter((s) => s === 409)).toHaveLength(BUYERS - STOCK);
  const [row] = await db.query<{ quantity: number; orders: string }>(
    'SELECT quantity, (SELECT count(DISTINCT order_id) FROM order_items WHERE book_copy_id = $1) AS orders FROM book_copies WHERE id = $1',
    [copy],
  );
  expect(row).toEqual({ quantity: 0, orders: String(STOCK) });
  expect(a.child.exitCode).toBeNull();
  expect(b.child.exitCode).toBeNull();
});
