import { checkProfile, FORM_MESSAGES, PERSON_NAME_MAX } from '@bookshop/rules';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { SubmitButton } from '../../components/busy-button';
import { LoadError } from '../../components/load-error';
import { Notice, useNotice } from '../../components/notice';
import { OwnSessions } from '../../components/own-sessions';
import { NO_PASSWORDS, type PasswordChange, PasswordChangeFields, passwordChangeResolver } from '../../components/password-change-fields';
import { useDescribedFields } from '../../lib/described-fields';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { LoginRedirect } from '../../lib/login-redirect';
import { formRuleResolver } from '../../lib/rule-resolver';
import { useSession } from '../../lib/session';
import { useSubmitOnce } from '../../lib/use-submit-once';
import { useChangePassword } from './api/change-password';
import { useEndOwnSessions } from './api/end-own-sessions';
import { useClientInfo } from './api/get-client-info';
import { useMailPreferences } from './api/get-mail-preferences';
import { useOwnSessions } from './api/get-own-sessions';
import { type MailPreferences, useSetMailPreferences } from './api/set-mail-preferences';
import { useUpdateProfile } from './api/update-profile';

type Profile = { firstName: string; lastName: string; phoneNumber: string };

/** Spec 5's profile rules, the ones the API applies. */
const profileResolver = formRuleResolver<Profile>(checkProfile);

/** The profile form, rendered once the saved profile has loaded and starting from it. */
function ProfileForm({ saved, account, show }: { saved: Profile; account: string; show: ReturnType<typeof useNotice>[1] }) {
  const update = useUpdateProfile();
  const form = useForm<Profile>({ defaultValues: saved, resolver: profileResolver });
  const { handleSubmit, reset } = form;
  const { field, errorTexts } = useDescribedFields(form);
  const save = handleSubmit(
    (profile) =>
      update.mutate(profile, {
        onSuccess: (stored) => {
          // What the server stored (trimmed) is the new starting point.
          reset({ firstName: stored.firstName, lastName: stored.lastName, phoneNumber: stored.phoneNumber });
          show('Profile updated successfully!');
        },
        onError: (error) => show('Failed to update profile.', 'error', failureReason(error)),
      }),
    (errors) => show(errors.root?.message ?? FORM_MESSAGES.allFieldsRequired, 'error'),
  );
  return (
    <form className="form" onSubmit={save}>
      <label>
        First name <input {...field('firstName')} autoComplete="given-name" maxLength={PERSON_NAME_MAX} />
      </label>
      <label>
        Last name <input {...field('lastName')} autoComplete="family-name" maxLength={PERSON_NAME_MAX} />
      </label>
      <label>
        Phone number <input {...field('phoneNumber')} placeholder="07XXXXXXXX" autoComplete="tel" />
      </label>
      <label>
        Email <input value={account} readOnly />
      </label>
      {errorTexts}
      <SubmitButton busy={update.isPending}>Save Changes</SubmitButton>
    </form>
  );
}

/** The client's e-mail choices (beyond the spec), each saved as it is ticked. */
function MailChoices() {
  const { data, isError, error, refetch } = useMailPreferences();
  const set = useSetMailPreferences();
  const [notice, show] = useNotice();
  // While a change is being saved, the boxes show it, and wait: a second change sent meanwhile could be
  // answered first, and the first one's answer would then put back choices the shop no longer has.
  // Said by aria-disabled, not disabled, which would drop the keyboard's focus from the box just ticked.
  const shown = set.isPending ? set.variables : data;
  const choose = (change: Partial<MailPreferences>) => {
    if (!shown || set.isPending) return;
    set.mutate(
      { ...shown, ...change },
      {
        onSuccess: () => show('E-mail choices saved.'),
        onError: (failure) => show('Failed to save your e-mail choices.', 'error', failureReason(failure)),
      },
    );
  };
  return (
    <fieldset className="form mail-choices">
      <legend>E-mails</legend>
      {shown ? (
        <>
          <label>
            <input
              type="checkbox"
              checked={shown.statusEmails}
              aria-disabled={set.isPending}
              onChange={(e) => choose({ statusEmails: e.target.checked })}
            />
            Order status e-mails
          </label>
          <label>
            <input
              type="checkbox"
              checked={shown.backInStockEmails}
              aria-disabled={set.isPending}
              onChange={(e) => choose({ backInStockEmails: e.target.checked })}
            />
            Back-in-stock e-mails
          </label>
          <p className="muted">Order confirmations always go, whatever you choose here.</p>
        </>
      ) : isError ? (
        <LoadError what="your e-mail choices" error={error} onRetry={() => void refetch()} />
      ) : (
        <p className="muted">Loading...</p>
      )}
      <Notice notice={notice} />
    </fieldset>
  );
}

/** /account (spec 2.11). */
export default function AccountPage() {
  useDocumentTitle('Account');
  const { loggedIn, ready } = useSession();
  const { data: info, isError, error, refetch } = useClientInfo();
  const change = useChangePassword();
  const changing = useSubmitOnce();
  const [showPassword, setShowPassword] = useState(false);
  const passwordForm = useForm<PasswordChange, { account?: string }>({
    defaultValues: NO_PASSWORDS,
    resolver: passwordChangeResolver,
    context: { account: info?.account },
  });
  const passwordFields = useDescribedFields(passwordForm);
  const [notice, show] = useNotice();
  const sessions = useOwnSessions();
  const endSessions = useEndOwnSessions();

  if (ready && !loggedIn) return <LoginRedirect />;

  // Once at a time, from the first click: the password check before the call loads its list of common
  // passwords, and a second submit meanwhile would send the old password the first one just replaced.
  const savePassword = passwordForm.handleSubmit(
    async (passwords) => {
      try {
        await change.mutateAsync(passwords);
        show('Password changed successfully!');
        passwordForm.reset();
      } catch (error) {
        show('Failed to change password.', 'error', failureReason(error));
      }
    },
    (errors) => show(errors.root?.message ?? FORM_MESSAGES.passwordsMissing, 'error'),
  );

  return (
    <div className="narrow">
      <h1>Account</h1>
      <Notice notice={notice} />
      {info ? (
        <ProfileForm
          saved={{ firstName: info.firstName, lastName: info.lastName, phoneNumber: info.phoneNumber }}
          account={info.account}
          show={show}
        />
      ) : isError ? (
        <div role="alert">
          <p>Could not load your account.</p>
          <p className="muted">{failureReason(error)}</p>
          <button type="button" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      ) : (
        <p className="muted">Loading...</p>
      )}
      <button type="button" className="link" aria-expanded={showPassword} onClick={() => setShowPassword(!showPassword)}>
        {showPassword ? 'Hide password change' : 'Change password'}
      </button>
      {showPassword && (
        <form className="form" onSubmit={changing.handle(savePassword)}>
          <PasswordChangeFields field={passwordFields.field} />
          {passwordFields.errorTexts}
          <SubmitButton busy={changing.busy}>Change Password</SubmitButton>
        </form>
      )}
      <MailChoices />
      <OwnSessions sessions={sessions} end={endSessions} />
    </div>
  );
}
