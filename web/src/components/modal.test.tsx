// The dialog closes on a click on its backdrop, but not on a drag between a field (selecting its text)
// and the backdrop, either way: the browser reports that as a click on the dialog too.
import { fireEvent, render, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { Modal } from './modal';

function renderModal() {
  const onClose = vi.fn();
  render(
    <Modal title="Checkout" onClose={onClose}>
      <label>
        Address <textarea defaultValue="1 Main Street" />
      </label>
    </Modal>,
  );
  return { onClose, dialog: screen.getByRole('dialog', { hidden: true }), field: screen.getByLabelText('Address') };
}

it('stays open when a press in a field is released over the backdrop', () => {
  const { onClose, dialog, field } = renderModal();
  fireEvent.pointerDown(field);
  // Released outside the field: the click's target is their common ancestor, the dialog.
  fireEvent.click(dialog);
  expect(onClose).not.toHaveBeenCalled();
});

it('stays open when a press on the backdrop is released in a field', () => {
  const { onClose, dialog, field } = renderModal();
  fireEvent.pointerDown(dialog);
  fireEvent.pointerUp(field);
  fireEvent.click(dialog);
  expect(onClose).not.toHaveBeenCalled();
});

it('closes on a click that begins and ends on the backdrop', () => {
  const { onClose, dialog, field } = renderModal();
  fireEvent.pointerDown(dialog);
  fireEvent.pointerUp(dialog);
  fireEvent.click(dialog);
  expect(onClose).toHaveBeenCalledTimes(1);
  // A click inside never closes it.
  fireEvent.pointerDown(field);
  fireEvent.click(field);
  expect(onClose).toHaveBeenCalledTimes(1);
});
