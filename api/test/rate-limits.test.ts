// Each limited route counts its own requests: one address that used up the contact form's hour can
// still ask for a password reset, and the limits of two routes never add up into one.
import { expect, it } from 'vitest';
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
