// The catalog as CSV, fetched through the API client (so an expired session is renewed first) and
// handed to the browser as a download.
import { api, withSession } from '../../../api/client';

export async function downloadCatalogCsv() {
  const response = await withSession('Employee', async () => {
    const result = await api.GET('/api/employee/catalog/export.csv', { parseAs: 'blob' });
    // The helper unwraps `{ data }` bodies; a file is the body itself.
    return { ...result, data: result.data === undefined ? undefined : { data: result.data } };
  });
  const name = `bookshop-books-${new Date().toISOString().slice(0, 10)}.csv`;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(response as Blob);
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}
