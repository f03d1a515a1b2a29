import { CONTACT_MESSAGE_MAX, contactProblems } from '@bookshop/rules';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Notice, useNotice } from '../../components/notice';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';

type Fields = { name: string; email: string; message: string };
type Errors = Partial<Record<keyof Fields, string>>;

/** Spec 5's contact rules (@bookshop/rules, which the API applies too), one message per field. */
export function validateContact(fields: Fields): Errors {
  return Object.fromEntries(contactProblems(fields).map((problem) => [problem.field, problem.message]));
}

export default function ContactPage() {
  useDocumentTitle('Contact');
  const [fields, setFields] = useState<Fields>({ name: '', email: '', message: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [notice, show] = useNotice();

  const change = (key: keyof Fields) => (e: { target: { value: string } }) => {
    setFields({ ...fields, [key]: e.target.value });
    setErrors({ ...errors, [key]: undefined }); // typing in a field clears that field's error
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateContact(fields);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await unwrap(api.POST('/api/public/contact', { body: { userName: fields.name, account: fields.email, message: fields.message } }));
      show('Message sent successfully!');
      setFields({ name: '', email: '', message: '' });
    } catch (error) {
      show('Failed to send message.', 'error', failureReason(error));
    } finally {
      setBusy(false);
    }
  };
  const error = (key: keyof Fields) =>
    errors[key] && (
      <span className="field-error" id={`${key}-error`}>
        {errors[key]}
      </span>
    );

  return (
    <div className="narrow">
      <h1>Contact Us</h1>
      <Notice notice={notice} />
      <form className="form" onSubmit={submit} noValidate>
        <label>
          Name <input value={fields.name} onChange={change('name')} aria-invalid={!!errors.name} aria-describedby="name-error" />
          {error('name')}
        </label>
        <label>
          Email{' '}
          <input
            type="email"
            value={fields.email}
            onChange={change('email')}
            aria-invalid={!!errors.email}
            aria-describedby="email-error"
          />
          {error('email')}
        </label>
        <label>
          Message
          <textarea
            value={fields.message}
            onChange={change('message')}
            maxLength={CONTACT_MESSAGE_MAX}
            rows={3}
            aria-invalid={!!errors.message}
            aria-describedby="message-error"
          />
          <span className="muted">
            {fields.message.length}/{CONTACT_MESSAGE_MAX} characters
          </span>
          {error('message')}
        </label>
        <button type="submit" className="primary" disabled={busy}>
          Send
        </button>
      </form>
    </div>
  );
}
