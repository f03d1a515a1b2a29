// A catalog write refreshes every back-office screen that shows what it changed, not only its own
// table: Low Stock shows copies' stock, price and names, and an ISBN's new author joins Authors. An
// order's new status shows in the dashboard's status chart too, and every write in the audit log.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { expect, it } from 'vitest';
import { SIGNED_OUT, stubApi } from '../../../../test/render';
import { useAddBook } from './add-book';
import { useAddCopy } from './add-copy';
import { useDeleteBook } from './delete-book';
import { useDeleteCopy } from './delete-copy';
import { type BackofficeResource, backofficeKeys } from './query-keys';
import { useRenameAuthor } from './rename-author';
import { useSetOrderStatus } from './set-order-status';
import { useUpdateBook } from './update-book';
import { useUpdateCopy } from './update-copy';

/** Runs a write with every resource's first page cached, and answers which of them it invalidated. */
async function refreshedBy<Variables>(useWrite: () => { mutateAsync: (v: Variables) => Promise<unknown> }, variables: Variables) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const resources = Object.keys(backofficeKeys) as BackofficeResource[];
  for (const resource of resources) queryClient.setQueryData(backofficeKeys[resource].page(1), { rows: [] });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const { result } = renderHook(useWrite, { wrapper });
  await act(() => result.current.mutateAsync(variables));
  return resources.filter((resource) => queryClient.getQueryState(backofficeKeys[resource].page(1))?.isInvalidated);
}

const ok = { body: { data: true } };

it("a copy added, saved or deleted refreshes Low Stock, which shows copies' stock and price", async () => {
  stubApi({ ...SIGNED_OUT, 'POST /api/employee/book-copy': ok, 'PUT /api/employee/book-copy': ok, 'DELETE /api/employee/book-copy/5': ok });
  const copy = { bookId: 1, quantity: 2, price: 9.99, isAvailable: true };
  expect(await refreshedBy(useAddCopy, copy)).toContain('lowStock');
  expect(await refreshedBy(useUpdateCopy, { ...copy, id: 5, version: 1 })).toContain('lowStock');
  expect(await refreshedBy(useDeleteCopy, { id: 5, version: 1 })).toContain('lowStock');
});

it('a book saved or deleted, or an author renamed, refreshes Low Stock, which names both; a book added by ISBN refreshes Authors', async () => {
  stubApi({
    ...SIGNED_OUT,
    'PUT /api/employee/book': ok,
    'DELETE /api/employee/book/3': ok,
    'PUT /api/employee/author/4,Tolkien': ok,
    'POST /api/employee/book/9780261103573': ok,
  });
  expect(await refreshedBy(useUpdateBook, { id: 3, name: 'Earthsea', version: 1 })).toContain('lowStock');
  expect(await refreshedBy(useDeleteBook, { id: 3, version: 1 })).toContain('lowStock');
  expect(await refreshedBy(useRenameAuthor, { id: 4, name: 'Tolkien', version: 1 })).toContain('lowStock');
  expect(await refreshedBy(useAddBook, '9780261103573')).toContain('authors');
});

it('every back-office write refreshes the audit log, where the API records it: a copy saved, an author renamed', async () => {
  stubApi({ ...SIGNED_OUT, 'PUT /api/employee/book-copy': ok, 'PUT /api/employee/author/4,Tolkien': ok });
  expect(await refreshedBy(useUpdateCopy, { bookId: 1, quantity: 2, price: 9.99, isAvailable: true, id: 5, version: 1 })).toContain(
    'auditLog',
  );
  expect(await refreshedBy(useRenameAuthor, { id: 4, name: 'Tolkien', version: 1 })).toContain('auditLog');
});

it("an order's new status refreshes the dashboard's status chart and the audit log beside the orders", async () => {
  stubApi({ ...SIGNED_OUT, 'PUT /api/employee/order/set-status/7,Shipped': ok });
  expect(await refreshedBy(useSetOrderStatus, { orderId: 7, status: 'Shipped', from: 'Processing' })).toEqual(
    expect.arrayContaining(['orders', 'dashboard', 'charts', 'auditLog']),
  );
});
