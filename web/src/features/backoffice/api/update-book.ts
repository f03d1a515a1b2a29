import { api, withSession } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useBackofficeMutation } from './backoffice-mutation';

const updateBook = (body: BodyOf<'updateBook'>) => withSession('Employee', () => api.PUT('/api/employee/book', { body }));

export const useUpdateBook = () => useBackofficeMutation(updateBook, ['books']);
