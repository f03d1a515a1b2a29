import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { refusedAsStale, useBackofficeMutation, versionRead } from './backoffice-mutation';

export type EmployeeInfo = BodyOf<'updateOwnEmployeeInfo'>;

/** `version`: the information's as the form read it, so a save over a change made elsewhere since is refused (412). */
const updateEmployeeMe = ({ version, ...body }: EmployeeInfo & { version: number }) =>
  withSession('Employee', () => api.PUT('/api/employee', { body, params: { header: versionRead(version) } }));

/** The Employees table shows this employee too; after a 412 the form reads what is saved now. */
export const useUpdateEmployeeMe = () => useBackofficeMutation(updateEmployeeMe, ['me', 'employees'], { staleWhen: refusedAsStale });
