// People as the back-office API answers them, for tests that need one: each test names only what
// it reads, the rest is a plausible employee.
import type { Schemas } from '../src/api/types';

export const anEmployee = (fields: Partial<Schemas['EmployeeRow']> = {}): Schemas['EmployeeRow'] => ({
  id: 7,
  firstName: 'Sami',
  lastName: 'Seller',
  type: 'Seller',
  gender: 'Male',
  birthDate: '1990-01-01',
  email: 's@bookshop.test',
  phoneNumber: '0555000000',
  address: 'Algiers',
  version: 1,
  ...fields,
});

/** A live session as the Account screens list it: this browser's, unless told otherwise. */
export const aSession = (fields: Partial<Schemas['OwnSession']> = {}): Schemas['OwnSession'] => ({
  id: '0b0c5e3a-7c1d-4c7e-9a53-2f1d6a0e0001',
  startedAt: '2026-12-01T08:00:00.000Z',
  lastActiveAt: '2026-12-01T09:00:00.000Z',
  device: 'Firefox on Linux',
  current: true,
  ...fields,
});
/** The sessions list's answer for someone signed in in one browser only. */
export const THIS_SESSION_ONLY = { body: { data: [aSession()] } };

/**
 * What the client's Account screen reads besides its sessions, for the demo client: their details and
 * both e-mail choices on. Beside SIGNED_IN_CLIENT and the sessions' answer.
 */
export const CLIENT_ACCOUNT_READS = {
  'GET /api/client/manage': { body: { data: { firstName: 'Demo', lastName: 'Client', phoneNumber: '0555123456', account: 'c@x.test' } } },
  'GET /api/client/manage/mail-preferences': { body: { data: { statusEmails: true, backInStockEmails: true } } },
};
