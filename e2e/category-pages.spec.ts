// Category pages a shopper can share filtered (issue 30): the address of a sorted, filtered page
// shows the books the browse call answers for it, the same in the server's HTML (what a link preview
// reads before any script runs) and once the app has started, and Back returns to them. A search's
// shared address the same way, named in the tab, and a page past the end moved to the last.
import { expect, test } from './fixtures.ts';

const ADDRESS = '/Fantasy?sort=price-desc&inStock=1&minRating=4';
/** The same state as the storefront asks the API for it. */
const CALL = '/api/public/book-copy/browse/Fantasy?sort=price-desc&inStock=true&minRating=4&pageNumber=1&pageSize=15';

test('a shopper opens the shared address of a sorted, filtered category, sees its books, opens one and comes Back to the same books and choices', async ({
  page,
  browser,
  baseURL,
}) => {
  const answer = await page.request.get(CALL);
  expect(answer.status()).toBe(200);
  const names = ((await answer.json()).data.booksCopies as { name: string }[]).map((book) => book.name);
  expect(names.length).toBeGreaterThan(1);

  // Before any script runs: the category and these books, in this order.
  const preview = await browser.newContext({ javaScriptEnabled: false });
  const raw = await preview.newPage();
  await raw.goto(ADDRESS);
  await expect(raw).toHaveTitle('Fantasy · Bookshop');
  await expect(raw.getByRole('heading', { level: 1 })).toHaveText('Fantasy');
  await expect(raw.getByRole('main').getByRole('link')).toHaveText(names);
  await preview.close();

  // The app takes over with the same heading, choices and books.
  await page.goto(ADDRESS);
  await expect(page).toHaveTitle('Fantasy · Bookshop');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fantasy');
  const filters = page.getByRole('complementary', { name: 'Sort and filters' });
  await expect(filters.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price-desc');
  await expect(filters.getByRole('checkbox', { name: /In stock only/ })).toBeChecked();
  await expect(filters.getByRole('radio', { name: /4 stars and up/ })).toBeChecked();
  const grid = page.getByRole('region', { name: 'Fantasy' });
  await expect(grid.getByRole('heading', { level: 2 })).toHaveText(names);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/fantasy`);

  // A book's screen is no longer the category: the category's head tags leave with it.
  await grid.getByRole('button', { name: `Open ${names[1]}`, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(names[1]!);
  await expect(page.locator('[data-category-page]')).toHaveCount(0);

  await page.goBack();
  await expect(page).toHaveURL(`${baseURL}${ADDRESS}`);
  await expect(grid.getByRole('heading', { level: 2 })).toHaveText(names);
  await expect(filters.getByRole('radio', { name: /4 stars and up/ })).toBeChecked();

  // A name that is no category: the server says 404, and the storefront goes home.
  const missing = await page.goto('/Fantasyy?sort=newest');
  expect(missing!.status()).toBe(404);
  await expect(page).toHaveURL(`${baseURL}/`);
});

test("a shopper opens a shared search's address, past its last page, and sees the search's books before and after the app starts", async ({
  page,
  browser,
  baseURL,
}) => {
  const call = (pageNumber: number) => `/api/public/book-copy/search/?text=harry%20poter&inStock=true&pageNumber=${pageNumber}&pageSize=15`;
  const { totalPages } = (await (await page.request.get(call(1))).json()).data as { totalPages: number };
  const answer = await page.request.get(call(totalPages));
  expect(answer.status()).toBe(200);
  const names = ((await answer.json()).data.booksCopies as { name: string }[]).map((book) => book.name);
  expect(names.length).toBeGreaterThan(0);
  const lastPage = `/searchresult?q=harry+poter&inStock=1${totalPages > 1 ? `&page=${totalPages}` : ''}`;

  // Before any script runs: the search named in the tab, and its last page's books (the server moved the address there).
  const preview = await browser.newContext({ javaScriptEnabled: false });
  const raw = await preview.newPage();
  await raw.goto('/searchresult?q=harry%20poter&inStock=1&page=99999');
  await expect(raw).toHaveURL(`${baseURL}${lastPage}`);
  await expect(raw).toHaveTitle('Search: harry poter · Bookshop');
  await expect(raw.getByRole('heading', { level: 1 })).toHaveText('Search Results for harry poter');
  await expect(raw.getByRole('main').getByRole('link')).toHaveText(names);
  await preview.close();

  // The app takes over with the same books; its paging says where it is.
  await page.goto('/searchresult?q=harry%20poter&inStock=1&page=99999');
  await expect(page).toHaveURL(`${baseURL}${lastPage}`);
  await expect(page).toHaveTitle('Search: harry poter · Bookshop');
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(names);
  await expect(page.getByText(`Page ${totalPages} of ${totalPages}`)).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
});
