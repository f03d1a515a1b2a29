// An e-mail's unsubscribe link asks first, then turns the list off; a broken link points to the account page.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { findStatusSaying, renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import UnsubscribePage from './unsubscribe-page';

it('asks before unsubscribing, then says it is done', async () => {
  const calls = stubApi({
    ...SIGNED_OUT,
    'POST /api/public/unsubscribe': { body: { data: 'You will no longer get order status e-mails.' } },
  });
  renderWithProviders(<UnsubscribePage />, { route: '/unsubscribe?client=7&list=status&token=abc' });
  expect(screen.getByText(/Stop getting order status e-mails\?/)).toBeInTheDocument();
  expect(calls.filter((c) => c.url === '/api/public/unsubscribe')).toHaveLength(0);
  await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
  // Where the Unsubscribe button was, with the focus the button had.
  expect(await findStatusSaying('You will no longer get order status e-mails.')).toHaveFocus();
  expect(calls.find((c) => c.url === '/api/public/unsubscribe')?.search).toBe('?client=7&list=status&token=abc');
});

it('a link missing its parts sends the person to the account page', () => {
  stubApi(SIGNED_OUT);
  renderWithProviders(<UnsubscribePage />, { route: '/unsubscribe?list=status' });
  expect(screen.getByRole('link', { name: 'account page' })).toBeInTheDocument();
});
