import { checkSignUp, FORM_MESSAGES, PERSON_NAME_MAX } from '@bookshop/rules';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { BusyButton, SubmitButton } from '../../components/busy-button';
import { Notice, useNotice } from '../../components/notice';
import { useDescribedFields } from '../../lib/described-fields';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { newPasswordFormProblem, PASSWORD_HINT } from '../../lib/password-rules';
import { paths } from '../../lib/paths';
import { formRuleResolver } from '../../lib/rule-resolver';
import { useSession } from '../../lib/session';
import { useRunOncePer } from '../../lib/use-submit-once';
import { useFinishSignUp } from './api/sign-up';

type Fields = { firstName: string; lastName: string; account: string; password: string; phoneNumber: string };
const EMPTY: Fields = { firstName: '', lastName: '', account: '', password: '', phoneNumber: '' };
// The SDK is imported on demand so the storefront's first load does not carry it.
const sdk = () => import('./identity');

/** Spec 5's sign-up rules, then every password rule of the API, before the provider account exists. */
const signUpResolver = formRuleResolver<Fields>(async (fields) => {
  const found = checkSignUp(fields);
  return found.problem === null ? newPasswordFormProblem('password', fields.password, fields.account) : found;
});

/** /signup (spec 2.9 and the sign-up flow of spec 4). */
export default function SignUpPage() {
  useDocumentTitle('Sign up');
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const form = useForm<Fields>({ defaultValues: EMPTY, resolver: signUpResolver });
  const { handleSubmit, getValues, formState } = form;
  const { field, errorTexts } = useDescribedFields(form);
  const finish = useFinishSignUp(() => {
    const fields = getValues();
    return {
      firstName: fields.firstName,
      lastName: fields.lastName,
      phoneNumber: fields.phoneNumber,
      account_informations: { account: fields.account, password: fields.password },
    };
  });
  const [step, setStep] = useState<'form' | 'verify'>('form');
  // The form, with the focused Sign up button, gives way to the verification step: the focus goes to
  // its heading, so a screen reader says where the shopper is and the keyboard goes on from there.
  const verifyHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (step === 'verify') verifyHeading.current?.focus();
  }, [step]);
  // Busy while the form is sent to the provider or the shop's account is asked for.
  const busy = formState.isSubmitting || finish.isPending;
  // Spec 4: messages disappear after 3 s.
  const [notice, show] = useNotice();

  const checkVerified = () =>
    finish.mutateAsync().then(
      (userType) => {
        if (!userType) return show('Email is not verified yet.', 'error');
        signedIn(userType);
        navigate(paths.home);
      },
      (error: unknown) => {
        // Spec 8's words, with the server's why beneath them as on every screen (a 409: the e-mail is already a client's).
        show('Failed to check verification.', 'error', failureReason(error));
      },
    );

  const submit = handleSubmit(
    async (fields) => {
      let verified: boolean;
      try {
        const { createOrResumeIdentity } = await sdk();
        ({ verified } = await createOrResumeIdentity(
          fields.account.trim(),
          fields.password,
          `${fields.firstName.trim()} ${fields.lastName.trim()}`,
        ));
      } catch (error) {
        const { providerMessage } = await sdk();
        show(providerMessage(error), 'error');
        return;
      }
      setStep('verify');
      // Verified already (a sign-up finished with the provider but not with the shop): straight on.
      if (verified) await checkVerified();
    },
    (errors) => show(errors.root?.message ?? FORM_MESSAGES.allFieldsRequired, 'error'),
  );

  // One resend at a time: clicks while one is on its way would each ask the provider for an e-mail,
  // and its refusal of the extra ones would replace the notice that the first was sent.
  const resending = useRunOncePer<'resend'>();
  const resend = async () => {
    try {
      await (await sdk()).resendVerification();
      show('Verification email resent.', 'success');
    } catch (error) {
      // The provider's why beneath spec 8's words: "too many attempts" tells the person to wait, not to click again.
      // (The provider's module is loaded on demand; if it cannot be, there is no reason to give.)
      const reason = await sdk().then(
        (provider) => provider.providerReason(error),
        () => undefined,
      );
      show('Failed to resend verification email.', 'error', reason);
    }
  };

  const shown = <Notice notice={notice} />;

  if (step === 'verify') {
    return (
      <div className="narrow">
        <h1 ref={verifyHeading} tabIndex={-1}>
          Verify your e-mail
        </h1>
        <p>A verification email has been sent to your account in inbox or junk/spam folder. Please verify your email before proceeding.</p>
        {shown}
        <div className="actions">
          <BusyButton className="primary" onClick={checkVerified} busy={busy}>
            I Verified My Email
          </BusyButton>
          <BusyButton onClick={() => resending.run('resend', resend)} busy={resending.busy('resend')}>
            Resend Verification Email
          </BusyButton>
        </div>
      </div>
    );
  }
  return (
    <div className="narrow">
      <h1>Sign up</h1>
      <form className="form" onSubmit={submit} noValidate>
        <label>
          First Name <input {...field('firstName')} autoComplete="given-name" maxLength={PERSON_NAME_MAX} />
        </label>
        <label>
          Last Name <input {...field('lastName')} autoComplete="family-name" maxLength={PERSON_NAME_MAX} />
        </label>
        <label>
          Email (Account) <input type="email" {...field('account')} autoComplete="email" />
        </label>
        {/* The hint beside the label, not in it, where it was read as part of the field's name. */}
        <div className="field">
          <label>
            Password <input type="password" {...field('password', 'password-hint')} autoComplete="new-password" />
          </label>
          <small id="password-hint">{PASSWORD_HINT}</small>
        </div>
        <label>
          Algerian Phone Number <input type="tel" {...field('phoneNumber')} placeholder="07XXXXXXXX" autoComplete="tel" />
        </label>
        {shown}
        {errorTexts}
        <SubmitButton busy={busy} busyLabel="Signing up...">
          Sign up
        </SubmitButton>
      </form>
    </div>
  );
}
