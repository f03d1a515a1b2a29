/**
 * All Clients and Client Messages answer a bare array when called without paging (as the spec's
 * screens read them); called with paging, as the back-office does, they answer one page.
 */
export async function onePage<Page extends object, Row>(call: Promise<Row[] | Page>): Promise<Page> {
  const data = await call;
  if (Array.isArray(data)) throw new Error('expected a page: the list was called without paging');
  return data;
}
