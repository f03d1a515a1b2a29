// Spec section 4: notices disappear after 3 s, on the clock and not by waiting. A success is said in a
// status region already on the page, an error by an alert.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { refusal, renderWithProviders, SIGNED_OUT, stubApi } from '../../test/render';
import LoginPage from '../features/auth/login-page';
import { NOTICE_MS } from '../lib/constants';
import { SESSION_ENDED_MESSAGE } from '../lib/session';
import { Notice, useNotice } from './notice';

afterEach(() => vi.useRealTimers());

it('the login error disappears after 3 s', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  stubApi({ ...SIGNED_OUT, 'POST /api/public/authentication/login': refusal(401, 'INVALID_CREDENTIALS', 'No.') });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  renderWithProviders(<LoginPage />, { route: '/login' });
  await user.type(screen.getByLabelText('Account'), 'reader@example.com');
  await user.type(screen.getByLabelText(/Password/), 'a long passphrase');
  await user.click(screen.getByRole('button', { name: 'Login' }));
  expect(await screen.findByText('Invalid account or password.')).toBeInTheDocument();
  await act(() => vi.advanceTimersByTimeAsync(NOTICE_MS / 2));
  expect(screen.getByText('Invalid account or password.')).toBeInTheDocument();
  await act(() => vi.advanceTimersByTimeAsync(NOTICE_MS / 2 + 100));
  expect(screen.queryByText('Invalid account or password.')).not.toBeInTheDocument();
});

it('so does the reason one was sent to login (a session that ended)', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  stubApi(SIGNED_OUT);
  renderWithProviders(<LoginPage />, { route: '/login', state: { message: SESSION_ENDED_MESSAGE } });
  expect(await screen.findByRole('alert')).toHaveTextContent(SESSION_ENDED_MESSAGE);
  await act(() => vi.advanceTimersByTimeAsync(NOTICE_MS + 100));
  expect(screen.queryByText(SESSION_ENDED_MESSAGE)).not.toBeInTheDocument();
});

function Saver() {
  const [notice, show] = useNotice();
  return (
    <>
      <button type="button" onClick={() => show('Saved.')}>
        Save
      </button>
      <button type="button" onClick={() => show('Not saved.', 'error', 'The server is busy.')}>
        Fail
      </button>
      <Notice notice={notice} />
    </>
  );
}

it('a success is said in a status region that was already on the page, empty, so screen readers announce it', async () => {
  render(<Saver />);
  const region = screen.getByRole('status');
  expect(region).toBeEmptyDOMElement();
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(screen.getByRole('status')).toBe(region);
  expect(region).toHaveTextContent('Saved.');
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  // An error is an alert (announced as it is inserted), with its reason; the region empties.
  await userEvent.click(screen.getByRole('button', { name: 'Fail' }));
  expect(screen.getByRole('alert')).toHaveTextContent('Not saved.The server is busy.');
  expect(screen.getByRole('status')).toBe(region);
  expect(region).toBeEmptyDOMElement();
});
