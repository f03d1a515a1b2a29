import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Notice, useNotice } from '../../components/notice';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { newPasswordProblem } from '../../lib/password-rules';
import { useSubmitOnce } from '../../lib/use-submit-once';
import { employeeApi } from './api';
import { backofficeKeys } from './query-keys';

const EMPTY = {
  firstName: '',
  lastName: '',
  gender: 'Male',
  birthDate: '',
  email: '',
  phoneNumber: '',
  address: '',
  password: '',
  role: 'Seller',
};

export default function EmployeesPage() {
  useDocumentTitle('Employees');
  const queryClient = useQueryClient();
  const [form, setForm] = useState(EMPTY);
  const [notice, show] = useNotice();
  const { data: employees, isPending } = useQuery({ queryKey: backofficeKeys.employees.all, queryFn: employeeApi.employees });

  const adding = useSubmitOnce();
  const add = async () => {
    const { password, role, ...person } = form;
    const problem = password ? await newPasswordProblem(password, person.email) : null;
    if (problem) return show(problem, 'error');
    try {
      await employeeApi.addEmployee({ person_informations: person, password, role });
      setForm(EMPTY);
      show('Employee added successfully.');
      await queryClient.invalidateQueries({ queryKey: backofficeKeys.employees.all });
    } catch (error) {
      show('Failed to add employee.', 'error', failureReason(error));
    }
  };
  const remove = async (id: number) => {
    if (!window.confirm('Are you sure you want to delete this employee?')) return;
    try {
      await employeeApi.deleteEmployee(id);
      show('Employee deleted successfully.');
      await queryClient.invalidateQueries({ queryKey: backofficeKeys.employees.all });
    } catch (error) {
      show('Failed to delete employee.', 'error', failureReason(error));
    }
  };
  const input = (key: keyof typeof EMPTY, label: string, type = 'text') => (
    <label>
      {label}
      <input type={type} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
    </label>
  );

  return (
    <section>
      <h1>Employees</h1>
      <Notice notice={notice} />
      <form className="form grid-form" aria-label="New employee" onSubmit={adding.handle(add)}>
        {input('firstName', 'First name')}
        {input('lastName', 'Last name')}
        <label>
          Gender
          <select value={form.gender} onChange={(e) => setForm({ ...form, gender: e.target.value })}>
            <option>Male</option>
            <option>Female</option>
          </select>
        </label>
        {input('birthDate', 'Birth date', 'date')}
        {input('email', 'Email', 'email')}
        {input('phoneNumber', 'Phone')}
        {input('address', 'Address')}
        {input('password', 'Password', 'password')}
        <label>
          Role
          <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value })}>
            <option>Admin</option>
            <option>Seller</option>
          </select>
        </label>
        <button type="submit" className="primary" disabled={adding.busy} aria-busy={adding.busy}>
          Add Employee
        </button>
      </form>
      {isPending ? (
        <p className="muted">Loading...</p>
      ) : !employees?.length ? (
        <p className="empty">No employees found.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                {['#', 'First', 'Last', 'Type', 'Gender', 'Birth', 'Email', 'Phone', 'Address', 'Actions'].map((h) => (
                  <th key={h}>{h}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {employees.map((e) => (
                <tr key={e.id}>
                  <td>{e.id}</td>
                  <td>{e.firstName}</td>
                  <td>{e.lastName}</td>
                  <td>{e.type}</td>
                  <td>{e.gender}</td>
                  <td>{e.birthDate}</td>
                  <td>{e.email}</td>
                  <td>{e.phoneNumber}</td>
                  <td>{e.address}</td>
                  <td>
                    {e.type !== 'Admin' && (
                      <button type="button" className="danger" onClick={() => remove(e.id)}>
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
