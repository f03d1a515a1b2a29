// A busy submit button refuses a second press without being `disabled`, which would take the keyboard's
// focus off it (the browser's part of that is checked in Chromium: e2e/accessibility.spec.ts).
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { SubmitButton } from './submit-button';

function renderForm(props: { busy: boolean; notReady?: boolean }) {
  const onSubmit = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
  render(
    <form onSubmit={onSubmit}>
      <label>
        Name <input />
      </label>
      <SubmitButton busy={props.busy} notReady={props.notReady} busyLabel="Saving...">
        Save
      </SubmitButton>
    </form>,
  );
  return onSubmit;
}

it('while busy says so and sends nothing, pressed or by Enter in a field, yet keeps the focus', async () => {
  const onSubmit = renderForm({ busy: true });
  const button = screen.getByRole('button', { name: 'Saving...' });
  expect(button).toHaveAttribute('aria-disabled', 'true');
  expect(button).toHaveAttribute('aria-busy', 'true');
  expect(button).toBeEnabled();
  button.focus();
  await userEvent.keyboard('{Enter}');
  await userEvent.click(button);
  await userEvent.type(screen.getByLabelText('Name'), 'x{Enter}');
  expect(onSubmit).not.toHaveBeenCalled();
});

it('when not busy sends the form', async () => {
  const onSubmit = renderForm({ busy: false });
  const button = screen.getByRole('button', { name: 'Save' });
  expect(button).not.toHaveAttribute('aria-disabled');
  await userEvent.click(button);
  expect(onSubmit).toHaveBeenCalledTimes(1);
});

it('is disabled while the form is not ready to send', () => {
  renderForm({ busy: false, notReady: true });
  expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
});
