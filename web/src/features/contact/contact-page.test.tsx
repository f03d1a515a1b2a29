import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { refusal, renderWithProviders, SIGNED_OUT, stubApi } from '../../../test/render';
import ContactPage, { contactResolver } from './contact-page';

describe('contact form', () => {
  let calls: ReturnType<typeof stubApi>;
  beforeEach(() => {
    calls = stubApi({ ...SIGNED_OUT, 'POST /api/public/contact': { body: { data: true } } });
  });

  it('applies the rules of spec 5 with their messages, each under its field', async () => {
    const messagesOf = async (values: { name: string; email: string; message: string }) => {
      const { errors } = await contactResolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });
      return Object.fromEntries(Object.entries(errors).map(([field, error]) => [field, error?.message]));
    };
    expect(await messagesOf({ name: '', email: '', message: '' })).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      message: 'Message is required',
    });
    expect(await messagesOf({ name: 'A', email: 'a@b', message: 'x'.repeat(51) })).toEqual({
      email: 'Invalid email format',
      message: 'Message must be 50 characters or less',
    });
    expect(await messagesOf({ name: 'A', email: 'a@b.co', message: 'x'.repeat(50) })).toEqual({});
  });

  it('shows errors, clears a field error on typing, counts characters, and sends', async () => {
    renderWithProviders(<ContactPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Name/), 'Ann');
    expect(screen.queryByText('Name is required')).not.toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Email/), 'ann@example.com');
    await userEvent.type(screen.getByLabelText(/^Message/), 'Hello there');
    expect(screen.getByText('11/50 characters')).toBeInTheDocument();
    // Each field is named by its label alone; the counter and an error describe it, and only while shown.
    const message = screen.getByRole('textbox', { name: 'Message' });
    expect(message).toHaveAccessibleDescription('11/50 characters');
    expect(screen.getByRole('textbox', { name: 'Name' })).not.toHaveAttribute('aria-describedby');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByText('Message sent successfully!')).toBeInTheDocument());
    expect(calls.find((c) => c.url === '/api/public/contact')?.body).toEqual({
      userName: 'Ann',
      account: 'ann@example.com',
      message: 'Hello there',
    });
  });

  it("shows 'Failed to send message.' when the shop refuses", async () => {
    stubApi({
      ...SIGNED_OUT,
      'POST /api/public/contact': refusal(500, 'INTERNAL', 'x'),
    });
    renderWithProviders(<ContactPage />);
    await userEvent.type(screen.getByLabelText(/^Name/), 'Ann');
    await userEvent.type(screen.getByLabelText(/^Email/), 'ann@example.com');
    await userEvent.type(screen.getByLabelText(/^Message/), 'Hi');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Failed to send message.')).toBeInTheDocument();
  });
});
