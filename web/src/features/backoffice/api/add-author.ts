import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

const addAuthor = (name: string) => withSession('Employee', () => api.POST('/api/employee/author/{name}', { params: { path: { name } } }));

export const useAddAuthor = () => useBackofficeMutation(addAuthor, ['authors']);
