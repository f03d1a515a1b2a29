// A frontend on another site, written as the spec's own client is: plain fetch calls with
// credentials, the spec's sign-up body and no Authorization header, image URLs upgraded with
// String.replace. The page lives at E2E_CROSS_SITE_ORIGIN (a blank page on localhost, while the API
// is on 127.0.0.1) and calls an API instance whose CORS_ORIGINS names it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { test as base, expect } from './fixtures.ts';

/**
 * A browser profile as a shopper's Chrome has it. Playwright's own contexts are incognito-like, and
 * incognito blocks every third-party cookie, so a cross-site session could never work there; a
 * normal profile allows them (cookie_controls_mode 0), as stable Chrome does by default.
 */
const test = base.extend<{ shopperPage: Page }>({
  shopperPage: async ({ launchOptions }, use) => {
    const profile = await mkdtemp(path.join(os.tmpdir(), 'bookshop-profile-'));
    await mkdir(path.join(profile, 'Default'));
    await writeFile(path.join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: 0 } }));
    const context: BrowserContext = await chromium.launchPersistentContext(profile, launchOptions);
    await use(context.pages()[0] ?? (await context.newPage()));
    await context.close();
    await rm(profile, { recursive: true, force: true });
  },
});

const apiUrl = process.env.E2E_CROSS_SITE_API_URL ?? '';
const frontend = process.env.E2E_CROSS_SITE_ORIGIN ?? '';

test('a shopper on a frontend hosted on another site signs up with the spec body, keeps a session and a cart', async ({
  shopperPage: page,
}) => {
  await page.goto(frontend);
  const email = `cross-${Date.now()}@example.com`;
  const emulator = `http://${process.env.E2E_EMULATOR_HOST}`;

  // The spec's sign-up flow: the provider account first, in the browser, as the identity SDK does.
  await page.evaluate(
    async ({ emulator, email }) => {
      const res = await fetch(`${emulator}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'Secret123!', returnSecureToken: true }),
      });
      const { idToken } = await res.json();
      await fetch(`${emulator}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=demo-api-key`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requestType: 'VERIFY_EMAIL', idToken }),
      });
    },
    { emulator, email },
  );
  const { oobCodes } = (await (await fetch(`${emulator}/emulator/v1/projects/demo-bookshop/oobCodes`)).json()) as {
    oobCodes: { email: string; oobLink: string }[];
  };
  await fetch(oobCodes.filter((c) => c.email === email).at(-1)!.oobLink);

  const outcome = await page.evaluate(
    async ({ apiUrl, email }) => {
      const call = async (method: string, path: string, body?: object) => {
        const res = await fetch(`${apiUrl}/api${path}`, {
          method,
          credentials: 'include',
          headers: body ? { 'content-type': 'application/json' } : {},
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: res.status, body: await res.json() };
      };
      const signUp = await call('POST', '/public/sign-up/', {
        firstName: 'Cross',
        lastName: 'Site',
        phoneNumber: '0551234567',
        account_informations: { account: email, password: 'Secret123!' },
      });
      const me = await call('GET', '/client/manage');
      const category = await call('GET', '/public/book-copy/by-type/Fantasy,1,15');
      const firstCard = category.body.data.booksCopies.find((c: { quantity: number }) => c.quantity > 0);
      const added = await call('POST', `/client/cart/${firstCard.id}`);
      // Two tabs refreshing at the same moment with the same refresh token.
      const [r1, r2] = await Promise.all([
        call('POST', '/public/authentication/refresh-tokens/Client'),
        call('POST', '/public/authentication/refresh-tokens/Client'),
      ]);
      const cart = await call('GET', '/client/cart');
      if (cart.status !== 200) return { signUp, me, added: added.status, refreshes: [r1, r2], cart: cart.body, covers: 0 };
      const covers = cart.body.data.map((item: { imageUrl: string }) => item.imageUrl.replace('http://', 'https://'));
      return { signUp, me, added: added.status, refreshes: [r1.status, r2.status], cart: cart.status, covers: covers.length };
    },
    { apiUrl, email },
  );

  expect(outcome.signUp).toEqual({ status: 200, body: { data: 'Client' } });
  expect(outcome.me.status).toBe(200);
  expect(outcome.me.body.data).toMatchObject({ firstName: 'Cross', account: email });
  expect(outcome.added).toBe(200);
  expect(outcome.refreshes).toEqual([200, 200]);
  expect(outcome.cart).toBe(200);
  expect(outcome.covers).toBe(1);
});

test('a page on a site the API does not list gets no answer it can read', async ({ shopperPage: page }) => {
  await page.route('http://elsewhere.bookshop.test/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Other</title>' }),
  );
  await page.goto('http://elsewhere.bookshop.test/');
  const outcome = await page.evaluate(async (apiUrl) => {
    try {
      await fetch(`${apiUrl}/api/public/book-copy/types/`, { credentials: 'include' });
      return 'read';
    } catch {
      return 'blocked';
    }
  }, apiUrl);
  expect(outcome).toBe('blocked');
});
