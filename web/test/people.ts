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
