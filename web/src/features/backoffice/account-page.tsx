import { FORM_MESSAGES, GENDERS } from '@bookshop/rules';
import { Fragment, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Schemas } from '../../api/types';
import { SubmitButton } from '../../components/busy-button';
import { ChoiceField } from '../../components/choice-field';
import { LoadError } from '../../components/load-error';
import { Notice, useNotice } from '../../components/notice';
import { OwnSessions } from '../../components/own-sessions';
import { NO_PASSWORDS, type PasswordChange, PasswordChangeFields, passwordChangeResolver } from '../../components/password-change-fields';
import { useDescribedFields } from '../../lib/described-fields';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { useSubmitOnce } from '../../lib/use-submit-once';
import { rowNowOf } from './api/backoffice-mutation';
import { useChangeEmployeePassword } from './api/change-password';
import { useEndOwnEmployeeSessions } from './api/end-own-sessions';
import { useEmployeeMe } from './api/get-me';
import { useOwnEmployeeSessions } from './api/get-own-sessions';
import { useSecondFactor } from './api/get-second-factor';
import { type EmployeeInfo, useUpdateEmployeeMe } from './api/update-me';
import { SecondFactorSection } from './second-factor-section';
import { useStepUpGuard } from './step-up';

const FIELDS: [keyof EmployeeInfo, string, string][] = [
  ['firstName', 'firstName', 'text'],
  ['lastName', 'lastName', 'text'],
  ['email', 'email', 'email'],
  ['phoneNumber', 'phoneNumber', 'tel'],
  ['address', 'address', 'text'],
  ['birthDate', 'birthDate', 'date'],
];

/** The form's fields of an employee row, and only those. */
const informationOf = ({ firstName, lastName, email, phoneNumber, address, birthDate, gender }: EmployeeInfo): EmployeeInfo => ({
  firstName,
  lastName,
  email,
  phoneNumber,
  address,
  birthDate,
  gender,
});

/**
 * The form starts from the saved information: Save Changes waits for a change (isDirty), Reset restores it.
 * A new e-mail is a new sign-in name, so the server asks who it is first: the second factor (`guard`),
 * or, from an employee without one, the current password, asked for beside the new e-mail.
 */
function InformationForm({
  saved,
  version,
  show,
  guard,
}: {
  saved: EmployeeInfo;
  /** The saved information's version as the form opened it, sent with each save. */
  version: number;
  show: ReturnType<typeof useNotice>[1];
  guard: ReturnType<typeof useStepUpGuard>['guard'];
}) {
  const update = useUpdateEmployeeMe();
  // Moved on by each save's answer, and by a 412's information now: the form is not remade when the
  // information is read again (that would drop what is being typed).
  const [versionRead, setVersionRead] = useState(version);
  const factors = useSecondFactor();
  const { register, handleSubmit, reset, watch, formState } = useForm<EmployeeInfo>({ defaultValues: saved });
  const typed = watch();
  const complete = Object.values(typed).every((value) => value.trim() !== '');
  // Kept out of the form's values: it is no information of theirs, and Reset or a save forgets it.
  const [currentPassword, setCurrentPassword] = useState('');
  // From an employee without a second factor, a new e-mail needs the password (one with a factor steps
  // up instead; when the factors could not be read, the field is offered rather than missed). The
  // e-mail is compared with the form's starting point, which a save moves to what was stored.
  const emailChanged = (typed.email ?? '').trim().toLowerCase() !== (formState.defaultValues?.email ?? '').toLowerCase();
  const withoutFactor = factors.isError || (factors.data !== undefined && !factors.data.totp && factors.data.passkeys.length === 0);
  const needsPassword = emailChanged && withoutFactor;
  const waitsForPassword = needsPassword && !currentPassword;
  // A field emptied is marked, and described by why Save Changes waits (spec 5: all fields required).
  const emptied = (key: keyof EmployeeInfo) => {
    const blank = formState.isDirty && (typed[key] ?? '').trim() === '';
    return { 'aria-invalid': blank, 'aria-describedby': blank ? 'information-incomplete' : undefined };
  };
  const save = handleSubmit((values) =>
    guard(() => update.mutateAsync({ ...values, ...(needsPassword && { currentPassword }), version: versionRead })).then(
      (stored) => {
        // What the server stored (an e-mail lower-cased, text trimmed) is the new starting point.
        reset(informationOf(stored));
        setVersionRead(stored.version);
        setCurrentPassword('');
        show('Information updated successfully.');
      },
      (error) => {
        // Changed elsewhere since the form was opened (412): what is saved now becomes the starting
        // point, with this person's edits kept on top, so Save again keeps both.
        const current = rowNowOf<Schemas['EmployeeRow']>(error);
        if (current) {
          reset(informationOf(current), { keepDirtyValues: true });
          setVersionRead(current.version);
        }
        show('Failed to update information.', 'error', failureReason(error));
      },
    ),
  );
  return (
    <form className="form" onSubmit={save}>
      {FIELDS.map(([key, label, type]) => (
        <Fragment key={key}>
          <label>
            {label}
            <input type={type} {...register(key)} {...emptied(key)} />
          </label>
          {key === 'email' && needsPassword && (
            <label>
              Password, to confirm the new e-mail
              <input
                type="password"
                autoComplete="current-password"
                required
                value={currentPassword}
                onChange={(event) => setCurrentPassword(event.target.value)}
              />
            </label>
          )}
        </Fragment>
      ))}
      <ChoiceField label="gender" choices={GENDERS} field={register('gender')} />
      <div className="actions">
        <SubmitButton
          busy={update.isPending}
          notReady={!formState.isDirty || !complete || waitsForPassword}
          describedBy={formState.isDirty && !complete ? 'information-incomplete' : waitsForPassword ? 'password-for-email' : undefined}
        >
          Save Changes
        </SubmitButton>
        <button
          type="button"
          onClick={() => {
            reset();
            setCurrentPassword('');
          }}
        >
          Reset
        </button>
      </div>
      {/* Why Save Changes stays off when a field was emptied (spec 5: all fields required). */}
      {formState.isDirty && !complete && (
        <p id="information-incomplete" className="muted">
          {FORM_MESSAGES.allFieldsRequired}
        </p>
      )}
      {complete && waitsForPassword && (
        <p id="password-for-email" className="muted">
          Enter your current password to change your e-mail.
        </p>
      )}
    </form>
  );
}

export default function EmployeeAccountPage() {
  useDocumentTitle('Account');
  const { data, isPending, isError, error, refetch } = useEmployeeMe();
  const changePassword = useChangeEmployeePassword();
  const passwordForm = useForm<PasswordChange, { account?: string }>({
    defaultValues: NO_PASSWORDS,
    resolver: passwordChangeResolver,
    context: { account: data?.email },
  });
  const typed = passwordForm.watch();
  const passwordFields = useDescribedFields(passwordForm);
  const [notice, show] = useNotice();
  const resetting = useSubmitOnce();
  const sessions = useOwnEmployeeSessions();
  const endSessions = useEndOwnEmployeeSessions();
  // A new password ends the other sessions, and a new e-mail changes how one signs in: the server asks
  // for the second factor first (403 STEP_UP_REQUIRED).
  const { guard, prompt } = useStepUpGuard();
  if (isPending) return <p className="muted">Loading...</p>;
  if (!data) {
    // The spec's words, and why with a way to try again: an Admin who must set up a second factor is
    // kept on this screen, whose setup shows only with the data.
    return (
      <>
        <p className="empty">No employee data available.</p>
        {isError && <LoadError what="your information" error={error} onRetry={() => void refetch()} />}
      </>
    );
  }

  const resetPassword = passwordForm.handleSubmit(
    async (passwords) => {
      try {
        await guard(() => changePassword.mutateAsync(passwords));
        passwordForm.reset();
        show('Password reset successfully.');
      } catch (error) {
        show('Failed to reset password.', 'error', failureReason(error));
      }
    },
    (errors) => show(errors.root?.message ?? FORM_MESSAGES.passwordsMissing, 'error'),
  );

  return (
    <section className="narrow">
      <h1>Your Information</h1>
      <Notice notice={notice} />
      <InformationForm saved={informationOf(data)} version={data.version} show={show} guard={guard} />
      <h2>Reset Password</h2>
      <form className="form" onSubmit={resetting.handle(resetPassword)}>
        <PasswordChangeFields field={passwordFields.field} labels={['Current Password', 'New Password']} />
        {passwordFields.errorTexts}
        <SubmitButton busy={resetting.busy} notReady={!typed.oldPassword || !typed.newPassword}>
          Reset Password
        </SubmitButton>
      </form>
      <SecondFactorSection />
      {/* Ending them asks for the second factor too, as a new password does. */}
      <OwnSessions
        sessions={sessions}
        end={{ mutateAsync: (body) => guard(() => endSessions.mutateAsync(body)), isPending: endSessions.isPending }}
      />
      {prompt}
    </section>
  );
}
