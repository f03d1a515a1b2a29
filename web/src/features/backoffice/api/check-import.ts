import { api, withSession } from '../../../api/client';
import { useBackofficeMutation } from './backoffice-mutation';

/** Sends the file as it is, for the server's CSV parser: the dry run writes nothing. */
const checkImport = (csv: string) =>
  withSession('Employee', () =>
    api.POST('/api/employee/catalog/import', {
      body: csv,
      bodySerializer: (text: string) => text,
      headers: { 'content-type': 'text/csv' },
    }),
  );

export const useCheckImport = () => useBackofficeMutation(checkImport, []);
