import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Notice, useNotice } from '../../components/notice';
import { PasswordChangeFields } from '../../components/password-change-fields';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { newPasswordProblem } from '../../lib/password-rules';
import { useSubmitOnce } from '../../lib/use-submit-once';
import { employeeApi } from './api';

type Info = { firstName: string; lastName: string; email: string; phoneNumber: string; address: string; birthDate: string; gender: string };
const FIELDS: [keyof Info, string, string][] = [
  ['firstName', 'firstName', 'text'],
  ['lastName', 'lastName', 'text'],
  ['email', 'email', 'email'],
  ['phoneNumber', 'phoneNumber', 'tel'],
  ['address', 'address', 'text'],
  ['birthDate', 'birthDate', 'date'],
];

export default function EmployeeAccountPage() {
  useDocumentTitle('Account');
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery({ queryKey: ['employee', 'me'], queryFn: employeeApi.me });
  const [form, setForm] = useState<Info | null>(null);
  const [passwords, setPasswords] = useState({ oldPassword: '', newPassword: '' });
  const [notice, show] = useNotice();
  // The saved information, as the form holds it; Save Changes compares against it and Reset restores it.
  const original = useMemo<Info | null>(
    () =>
      data
        ? {
            firstName: data.firstName,
            lastName: data.lastName,
            email: data.email,
            phoneNumber: data.phoneNumber,
            address: data.address,
            birthDate: data.birthDate,
            gender: data.gender,
          }
        : null,
    [data],
  );
  useEffect(() => setForm(original), [original]);

  const saving = useSubmitOnce();
  const resetting = useSubmitOnce();
  if (isPending) return <p className="muted">Loading...</p>;
  if (!form || !original) return <p className="empty">No employee data available.</p>;
  const changed = (Object.keys(original) as (keyof Info)[]).some((k) => original[k] !== form[k]);
  const complete = Object.values(form).every((v) => v.trim() !== '');

  const save = async () => {
    try {
      await employeeApi.updateMe(form);
      show('Information updated successfully.');
      await queryClient.invalidateQueries({ queryKey: ['employee', 'me'] });
    } catch (error) {
      show('Failed to update information.', 'error', failureReason(error));
    }
  };
  const resetPassword = async () => {
    const problem = await newPasswordProblem(passwords.newPassword, data?.email);
    if (problem) return show(problem, 'error');
    try {
      await employeeApi.changePassword(passwords);
      setPasswords({ oldPassword: '', newPassword: '' });
      show('Password reset successfully.');
    } catch (error) {
      show('Failed to reset password.', 'error', failureReason(error));
    }
  };

  return (
    <section className="narrow">
      <h1>Your Information</h1>
      <Notice notice={notice} />
      <form className="form" onSubmit={saving.handle(save)}>
        {FIELDS.map(([key, label, type]) => (
          <label key={key}>
            {label}
            <input type={type} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
          </label>
        ))}
        <label>
          gender
          <select value={form.gender} onChange={(e) => setForm({ ...form, gender: e.target.value })}>
            <option>Male</option>
            <option>Female</option>
          </select>
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={!changed || !complete || saving.busy} aria-busy={saving.busy}>
            Save Changes
          </button>
          <button type="button" onClick={() => setForm(original)}>
            Reset
          </button>
        </div>
      </form>
      <h2>Reset Password</h2>
      <form className="form" onSubmit={resetting.handle(resetPassword)}>
        <PasswordChangeFields value={passwords} onChange={setPasswords} labels={['Current Password', 'New Password']} />
        <button
          type="submit"
          className="primary"
          disabled={!passwords.oldPassword || !passwords.newPassword || resetting.busy}
          aria-busy={resetting.busy}
        >
          Reset Password
        </button>
      </form>
    </section>
  );
}
