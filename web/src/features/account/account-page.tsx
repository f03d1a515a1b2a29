import { profileProblem } from '@bookshop/rules';
import { type FormEvent, useEffect, useState } from 'react';
import { Notice, useNotice } from '../../components/notice';
import { PasswordChangeFields } from '../../components/password-change-fields';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { LoginRedirect } from '../../lib/login-redirect';
import { newPasswordProblem } from '../../lib/password-rules';
import { useSession } from '../../lib/session';
import { useChangePassword, useClientInfo, useUpdateProfile } from './api';

/** /account (spec 2.11). */
export default function AccountPage() {
  useDocumentTitle('Account');
  const { loggedIn, ready } = useSession();
  const { data: info } = useClientInfo();
  const update = useUpdateProfile();
  const change = useChangePassword();
  const [profile, setProfile] = useState({ firstName: '', lastName: '', phoneNumber: '' });
  const [showPassword, setShowPassword] = useState(false);
  const [passwords, setPasswords] = useState({ oldPassword: '', newPassword: '' });
  const [notice, show] = useNotice();

  useEffect(() => {
    if (info) setProfile({ firstName: info.firstName, lastName: info.lastName, phoneNumber: info.phoneNumber });
  }, [info]);

  if (ready && !loggedIn) return <LoginRedirect />;

  const save = (e: FormEvent) => {
    e.preventDefault();
    const problem = profileProblem(profile);
    if (problem) return show(problem, 'error');
    update.mutate(profile, {
      onSuccess: () => show('Profile updated successfully!'),
      onError: (error) => show('Failed to update profile.', 'error', failureReason(error)),
    });
  };
  const savePassword = async (e: FormEvent) => {
    e.preventDefault();
    if (!passwords.oldPassword || !passwords.newPassword) return show('Please enter both current and new password.', 'error');
    const problem = await newPasswordProblem(passwords.newPassword, info?.account);
    if (problem) return show(problem, 'error');
    change.mutate(passwords, {
      onSuccess: () => {
        show('Password changed successfully!');
        setPasswords({ oldPassword: '', newPassword: '' });
      },
      onError: (error) => show('Failed to change password.', 'error', failureReason(error)),
    });
  };
  const field = (key: keyof typeof profile) => ({
    value: profile[key],
    onChange: (e: { target: { value: string } }) => setProfile({ ...profile, [key]: e.target.value }),
  });

  return (
    <div className="narrow">
      <h1>Account</h1>
      <Notice notice={notice} />
      <form className="form" onSubmit={save}>
        <label>
          First name <input {...field('firstName')} autoComplete="given-name" />
        </label>
        <label>
          Last name <input {...field('lastName')} autoComplete="family-name" />
        </label>
        <label>
          Phone number <input {...field('phoneNumber')} placeholder="07XXXXXXXX" autoComplete="tel" />
        </label>
        <label>
          Email <input value={info?.account ?? ''} readOnly />
        </label>
        <button type="submit" className="primary" disabled={update.isPending}>
          Save Changes
        </button>
      </form>
      <button type="button" className="link" aria-expanded={showPassword} onClick={() => setShowPassword(!showPassword)}>
        {showPassword ? 'Hide password change' : 'Change password'}
      </button>
      {showPassword && (
        <form className="form" onSubmit={savePassword}>
          <PasswordChangeFields value={passwords} onChange={setPasswords} />
          <button type="submit" className="primary" disabled={change.isPending}>
            Change Password
          </button>
        </form>
      )}
    </div>
  );
}
