import { FORM_MESSAGES, isFilled } from '@bookshop/rules';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { SubmitButton } from '../../components/busy-button';
import { Notice, useNotice } from '../../components/notice';
import { Outcome } from '../../components/outcome';
import { useDescribedFields } from '../../lib/described-fields';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { newPasswordFormProblem, PASSWORD_HINT } from '../../lib/password-rules';
import { paths } from '../../lib/paths';
import { formRuleResolver } from '../../lib/rule-resolver';
import { useResetPassword } from './api/reset-password';
import { VerifyEmail } from './verify-email';

type Fields = { newPassword: string; confirmPassword: string };
const EMPTY: Fields = { newPassword: '', confirmPassword: '' };
const INVALID_LINK = 'This reset link is invalid, used or expired. Please ask for a new one.';

/** Filled, typed twice alike, then the API's password rules (the API checks the e-mail rule too). */
const resolver = formRuleResolver<Fields>(async ({ newPassword, confirmPassword }) => {
  if (!isFilled(newPassword)) return { problem: FORM_MESSAGES.newPasswordRequired, fields: ['newPassword'] };
  if (newPassword !== confirmPassword) return { problem: FORM_MESSAGES.passwordsDiffer, fields: ['confirmPassword'] };
  return newPasswordFormProblem('newPassword', newPassword);
});

/**
 * /reset-password (beyond the spec): the identity provider's action URL, where its e-mails' links lead.
 * Firebase has one action URL for all of its templates, so the sign-up's verification e-mail
 * (mode=verifyEmail) comes here too, as well as the reset e-mail (mode=resetPassword).
 */
export default function ProviderActionPage() {
  const [params] = useSearchParams();
  if (params.get('mode') === 'verifyEmail') return <VerifyEmail oobCode={params.get('oobCode')} />;
  return <ResetPassword />;
}

/** A reset e-mail's link: the client chooses a new shop password; every session of theirs ends, so they log in again. */
function ResetPassword() {
  useDocumentTitle('Choose a new password');
  const [params] = useSearchParams();
  const oobCode = params.get('oobCode');
  const reset = useResetPassword();
  const form = useForm<Fields>({ defaultValues: EMPTY, resolver });
  // Whether the two passwords match is the second one's problem: a change of the first checks it again.
  const { field, errorTexts } = useDescribedFields(form, (name) => (name === 'newPassword' ? { deps: ['confirmPassword'] } : undefined));
  const [notice, show] = useNotice();
  const linkRefused = reset.error instanceof ApiError && reset.error.code === 'RESET_CODE_REFUSED';

  const submit = form.handleSubmit(
    async ({ newPassword }) => {
      try {
        await reset.mutateAsync({ oobCode: oobCode ?? '', newPassword });
      } catch (error) {
        show(failureReason(error) ?? 'Your password could not be changed.', 'error');
      }
    },
    (errors) => show(errors.root?.message ?? FORM_MESSAGES.newPasswordRequired, 'error'),
  );

  if (reset.isSuccess) {
    return (
      <div className="narrow">
        <h1>Choose a new password</h1>
        <Outcome className="notice notice-success">{reset.data}</Outcome>
        <p>
          <Link to={paths.login}>Go to Login</Link>
        </p>
      </div>
    );
  }
  if (!oobCode || params.get('mode') !== 'resetPassword' || linkRefused) {
    return (
      <div className="narrow">
        <h1>Choose a new password</h1>
        <p className="empty">{INVALID_LINK}</p>
        <p>
          <Link to={paths.forgotPassword}>Ask for a new link</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="narrow">
      <h1>Choose a new password</h1>
      <form className="form" onSubmit={submit} noValidate>
        <label>
          New password <input type="password" autoComplete="new-password" {...field('newPassword', 'new-password-hint')} />
        </label>
        <label>
          Confirm new password <input type="password" autoComplete="new-password" {...field('confirmPassword')} />
        </label>
        <p className="muted" id="new-password-hint">
          {PASSWORD_HINT}
        </p>
        <Notice notice={notice} />
        {errorTexts}
        <SubmitButton busy={reset.isPending} busyLabel="Saving...">
          Set new password
        </SubmitButton>
      </form>
    </div>
  );
}
