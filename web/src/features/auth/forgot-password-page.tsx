import { checkResetRequest, FORM_MESSAGES } from '@bookshop/rules';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { SubmitButton } from '../../components/busy-button';
import { Notice, useNotice } from '../../components/notice';
import { Outcome } from '../../components/outcome';
import { useDescribedFields } from '../../lib/described-fields';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { paths } from '../../lib/paths';
import { formRuleResolver } from '../../lib/rule-resolver';
import { useRequestPasswordReset } from './api/request-password-reset';

type Fields = { account: string };
const resolver = formRuleResolver<Fields>(checkResetRequest);

/**
 * /forgot-password (beyond the spec): a client asks for the identity provider's password-reset
 * e-mail. The answer is the same for any e-mail, so it stays on screen rather than fading.
 */
export default function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const request = useRequestPasswordReset();
  const form = useForm<Fields>({ defaultValues: { account: '' }, resolver });
  const { field, errorTexts } = useDescribedFields(form);
  const [notice, show] = useNotice();

  const submit = form.handleSubmit(
    async (fields) => {
      try {
        await request.mutateAsync(fields);
      } catch (error) {
        show('The reset e-mail could not be sent.', 'error', failureReason(error));
      }
    },
    (errors) => show(errors.root?.message ?? FORM_MESSAGES.emailRequired, 'error'),
  );

  return (
    <div className="narrow">
      <h1>Forgot password</h1>
      {request.isSuccess ? (
        <Outcome className="notice notice-success">{request.data}</Outcome>
      ) : (
        <>
          <p>Enter the e-mail you sign in with. We will e-mail you a link to choose a new password.</p>
          <form className="form" onSubmit={submit} noValidate>
            <label>
              Email <input type="email" autoComplete="username" {...field('account')} />
            </label>
            <Notice notice={notice} />
            {errorTexts}
            <SubmitButton busy={request.isPending} busyLabel="Sending...">
              Send reset link
            </SubmitButton>
          </form>
          <p className="muted">Employees: please ask an Admin to reset your password.</p>
        </>
      )}
      <p>
        <Link to={paths.login}>Back to Login</Link>
      </p>
    </div>
  );
}
