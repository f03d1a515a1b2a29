// The back-office tables' delete of a row someone else changed since the table was read: the same
// steps and the same refusal on Books, Authors and Book Copies.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import type { stubApi } from './render';

/**
 * Presses the table's Delete and expects the refusal of a stale version: the screen's failure with
 * the server's reason, the request having said the version it read (`ifMatch`).
 */
export async function expectDeleteRefusedAsStale(
  calls: ReturnType<typeof stubApi>,
  { failure, reason, ifMatch }: { failure: string; reason: string; ifMatch: string },
) {
  await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent(failure);
  expect(alert).toHaveTextContent(reason);
  expect(calls.find((call) => call.method === 'DELETE')?.ifMatch).toBe(ifMatch);
}
