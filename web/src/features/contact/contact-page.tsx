import { CONTACT_MESSAGE_MAX, contactProblems } from '@bookshop/rules';
import { useForm } from 'react-hook-form';
import { SubmitButton } from '../../components/busy-button';
import { Notice, useNotice } from '../../components/notice';
import { describedField } from '../../lib/described-fields';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { fieldRulesResolver } from '../../lib/rule-resolver';
import { useSendMessage } from './api/send-message';

type Fields = { name: string; email: string; message: string };
const EMPTY: Fields = { name: '', email: '', message: '' };

/** Spec 5's contact rules (@bookshop/rules, which the API applies too), one message per field. */
export const contactResolver = fieldRulesResolver<Fields>(contactProblems);

export default function ContactPage() {
  useDocumentTitle('Contact');
  const send = useSendMessage();
  const [notice, show] = useNotice();
  // Checked on Send only; typing in a field clears that field's message until the next Send.
  const { register, handleSubmit, reset, watch, clearErrors, formState } = useForm<Fields>({
    defaultValues: EMPTY,
    resolver: contactResolver,
    reValidateMode: 'onSubmit',
  });
  const { errors } = formState;

  const submit = handleSubmit(({ name, email, message }) =>
    send.mutateAsync({ userName: name, account: email, message }).then(
      () => {
        show('Message sent successfully!');
        reset();
      },
      (error) => show('Failed to send message.', 'error', failureReason(error)),
    ),
  );
  // The error and the counter sit beside the label, not in it: in it, they were read as part of the
  // field's name ("Message 12/50 characters"), and the error twice. Described by them only when shown.
  const field = describedField(
    register,
    errors,
    (key) => `${key}-error`,
    (key) => ({ onChange: () => clearErrors(key) }),
  );
  const error = (key: keyof Fields) =>
    errors[key] && (
      <span className="field-error" id={`${key}-error`}>
        {errors[key].message}
      </span>
    );

  return (
    <div className="narrow">
      <h1>Contact Us</h1>
      <Notice notice={notice} />
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label>
            Name <input {...field('name')} />
          </label>
          {error('name')}
        </div>
        <div className="field">
          <label>
            Email <input type="email" {...field('email')} />
          </label>
          {error('email')}
        </div>
        <div className="field">
          <label>
            Message
            <textarea {...field('message', 'message-count')} maxLength={CONTACT_MESSAGE_MAX} rows={3} />
          </label>
          <span className="muted" id="message-count">
            {watch('message').length}/{CONTACT_MESSAGE_MAX} characters
          </span>
          {error('message')}
        </div>
        <SubmitButton busy={send.isPending}>Send</SubmitButton>
      </form>
    </div>
  );
}
