import { EMPLOYEE_ROLES, EMPLOYEES_LISTED, GENDERS } from '@bookshop/rules';
import { useForm } from 'react-hook-form';
import { BusyButton, SubmitButton } from '../../components/busy-button';
import { ChoiceField } from '../../components/choice-field';
import { DataTable } from '../../components/data-table';
import { Notice, useNotice } from '../../components/notice';
import { QueryView } from '../../components/query-view';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { useSubmitOnce } from '../../lib/use-submit-once';
import { type NewEmployee, useAddEmployee } from './api/add-employee';
import { useChangeRole } from './api/change-role';
import { useDeleteEmployee } from './api/delete-employee';
import { useEmployees } from './api/get-employees';
import { useEmployeeMe } from './api/get-me';
import { useResetSecondFactor } from './api/reset-second-factor';
import { useStepUpGuard } from './step-up';

type EmployeeForm = Required<NonNullable<NewEmployee['person_informations']>> & { password: string; role: string };

const EMPTY: EmployeeForm = {
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
  const [notice, show] = useNotice();
  const { register, handleSubmit, reset } = useForm<EmployeeForm>({ defaultValues: EMPTY });
  const employees = useEmployees();
  const addEmployee = useAddEmployee();
  const deleteEmployee = useDeleteEmployee();
  const changeRole = useChangeRole();
  const resetSecondFactor = useResetSecondFactor();
  // The Admin's own row offers nothing: the server refuses a change of one's own role, one's own
  // reset (the Account screen has it) and one's own delete.
  const meQuery = useEmployeeMe();
  const me = meQuery.data?.id;
  // Until it is known which row is the Admin's own, no row offers its actions (a failed read offers
  // them all: the server still refuses one's own).
  const rowsKnown = !meQuery.isPending;
  // A row's action is sent once, one at a time: a second click meanwhile would be the same request again.
  const rowAction = useSubmitOnce();
  // Adding, deleting, a role change and a reset ask for the second factor again when it is 10 minutes old.
  const { guard, prompt } = useStepUpGuard();

  const adding = useSubmitOnce();
  // Spec 5: no other checks on the client side. The API's password rules answer instead, their
  // message shown under the spec's failure text.
  const add = handleSubmit(async ({ password, role, ...person }) => {
    try {
      await guard(() => addEmployee.mutateAsync({ person_informations: person, password, role }));
      reset();
      show('Employee added successfully.');
    } catch (error) {
      show('Failed to add employee.', 'error', failureReason(error));
    }
  });
  /** A row's write: asked first when `question` says so, sent once, under the step-up, and told. */
  const rowWrite = (question: string | null, write: () => Promise<unknown>, told: { success: string; failure: string }) =>
    rowAction.handle(async () => {
      if (question && !window.confirm(question)) return;
      await guard(write).then(
        () => show(told.success),
        (error) => show(told.failure, 'error', failureReason(error)),
      );
    });
  const remove = (id: number) =>
    rowWrite('Are you sure you want to delete this employee?', () => deleteEmployee.mutateAsync(id), {
      success: 'Employee deleted successfully.',
      failure: 'Failed to delete employee.',
    });
  const switchRole = (employee: { id: number; firstName: string; lastName: string; type: string }) => {
    const role = employee.type === 'Admin' ? 'Seller' : 'Admin';
    // An Admin may do everything, the staff's accounts included: granted on purpose, not by a slip.
    const question =
      role === 'Admin'
        ? `Make ${employee.firstName} ${employee.lastName} an Admin? Admins manage the employees, the clients and the catalog.`
        : null;
    // The role the row shows, sent with the change: one another Admin made meanwhile is refused, not switched back.
    const from = role === 'Admin' ? 'Seller' : 'Admin';
    return rowWrite(question, () => changeRole.mutateAsync({ id: employee.id, role, from }), {
      success: `Role changed to ${role}.`,
      failure: 'Failed to change the role.',
    });
  };
  const resetFactor = (id: number) =>
    rowWrite(
      "Reset this employee's second factor? Their apps, passkeys and recovery codes stop working.",
      () => resetSecondFactor.mutateAsync(id),
      {
        success: 'Second factor reset. The employee signs in with their password and sets up a new one.',
        failure: 'Failed to reset the second factor.',
      },
    );
  const input = (key: keyof EmployeeForm, label: string, type = 'text') => (
    <label>
      {label}
      <input type={type} {...register(key)} />
    </label>
  );

  return (
    <section>
      <h1>Employees</h1>
      {prompt}
      <Notice notice={notice} />
      <form className="form grid-form" aria-label="New employee" onSubmit={adding.handle(add)}>
        {input('firstName', 'First name')}
        {input('lastName', 'Last name')}
        <ChoiceField label="Gender" choices={GENDERS} field={register('gender')} />
        {input('birthDate', 'Birth date', 'date')}
        {input('email', 'Email', 'email')}
        {input('phoneNumber', 'Phone')}
        {input('address', 'Address')}
        {input('password', 'Password', 'password')}
        <ChoiceField label="Role" choices={EMPLOYEE_ROLES} field={register('role')} />
        <SubmitButton busy={adding.busy}>Add Employee</SubmitButton>
      </form>
      <QueryView query={employees} what="the employees" empty={{ text: 'No employees found.', when: (data) => !data.length }}>
        {(data) => (
          <>
            {data.length >= EMPLOYEES_LISTED && (
              <p className="muted">
                Showing the first {EMPLOYEES_LISTED.toLocaleString('en-US')} employees by number; the others are not listed here.
              </p>
            )}
            <DataTable
              rows={data}
              columns={[
                { label: '#', cell: (e) => e.id },
                { label: 'First', cell: (e) => e.firstName },
                { label: 'Last', cell: (e) => e.lastName },
                { label: 'Type', cell: (e) => e.type },
                { label: 'Gender', cell: (e) => e.gender },
                { label: 'Birth', cell: (e) => e.birthDate },
                { label: 'Email', cell: (e) => e.email },
                { label: 'Phone', cell: (e) => e.phoneNumber },
                { label: 'Address', cell: (e) => e.address },
                {
                  label: 'Actions',
                  cell: (e) =>
                    !rowsKnown ? null : e.id === me ? (
                      <span className="muted">You</span>
                    ) : (
                      // Every row's buttons have the same names: described by the employee, for a screen reader.
                      <div className="actions">
                        <span id={`employee-${e.id}`} hidden>
                          {e.firstName} {e.lastName}
                        </span>
                        <BusyButton onClick={switchRole(e)} busy={rowAction.busy} aria-describedby={`employee-${e.id}`}>
                          {e.type === 'Admin' ? 'Make Seller' : 'Make Admin'}
                        </BusyButton>
                        <BusyButton onClick={resetFactor(e.id)} busy={rowAction.busy} aria-describedby={`employee-${e.id}`}>
                          Reset second factor
                        </BusyButton>
                        {e.type !== 'Admin' && (
                          <BusyButton className="danger" onClick={remove(e.id)} busy={rowAction.busy} aria-describedby={`employee-${e.id}`}>
                            Delete
                          </BusyButton>
                        )}
                      </div>
                    ),
                },
              ]}
            />
          </>
        )}
      </QueryView>
    </section>
  );
}
