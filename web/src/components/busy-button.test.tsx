// A busy button (a form's submit button, or one that starts a call itself) refuses a second press without being `disabled`, which would take the keyboard's
// focus off it (the browser's part of that is checked in Chromium: e2e/accessibility.spec.ts).
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { BusyButton, SubmitButton } from './busy-button';

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

it('a button that starts its own call runs it only when not busy, and inside a form never submits it', async () => {
  const onSubmit = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
  const onClick = vi.fn();
  const { rerender } = render(
    <form onSubmit={onSubmit}>
      <BusyButton busy onClick={onClick} aria-label="Increase quantity">
        +
      </BusyButton>
    </form>,
  );
  const plus = screen.getByRole('button', { name: 'Increase quantity' });
  expect(plus).toHaveAttribute('aria-disabled', 'true');
  plus.focus();
  await userEvent.keyboard('{Enter}');
  await userEvent.click(plus);
  expect(onClick).not.toHaveBeenCalled();
  rerender(
    <form onSubmit={onSubmit}>
      <BusyButton busy={false} onClick={onClick} aria-label="Increase quantity">
        +
      </BusyButton>
    </form>,
  );
  expect(plus).not.toHaveAttribute('aria-disabled');
  await userEvent.click(plus);
  expect(onClick).toHaveBeenCalledTimes(1);
  expect(onSubmit).not.toHaveBeenCalled();
});
