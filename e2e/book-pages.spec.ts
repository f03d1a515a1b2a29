// Book pages a person can share: the address of a book shows it in any browser, after a refresh
// too, and a link preview that runs no JavaScript reads the book from the page itself.
import { authorPagePath, bookPagePath } from '../packages/rules/src/page-addresses.ts';
import { expect, query, test } from './fixtures.ts';

async function aBookInStock() {
  const [book] = await query<{ id: number; name: string; author: string }>(
    `SELECT c.id, b.name, a.full_name AS author FROM book_copies c JOIN books b ON b.id = c.book_id JOIN authors a ON a.id = b.author_id
     WHERE c.is_available AND c.quantity > 0 AND b.image_url LIKE 'https://%' ORDER BY b.ratings_count DESC LIMIT 1`,
  );
  return { ...book!, path: bookPagePath(book!.id, book!.name) };
}

test("a shopper opens a book's shared link in a fresh browser, refreshes it, and reaches the same address from the Detail screen", async ({
  page,
}) => {
  const book = await aBookInStock();
  await page.goto(book.path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(book.name);
  await expect(page.getByText(/^\d+ available$/)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(book.name);
  await expect(page).toHaveTitle(`${book.name} · Bookshop`);

  // An outdated address moves to the canonical one.
  await page.goto(`/books/${book.id}-an-old-title`);
  await expect(page).toHaveURL(book.path);

  // The spec's flow: a card opens /Detail, whose screen links to the book's own address.
  await page.goto('/');
  await page.getByLabel('Search books').fill(book.name);
  await page.getByLabel('Search books').press('Enter');
  const result = page.getByRole('main').getByRole('article').filter({ hasText: book.name }).first();
  await result.getByRole('button', { name: /^Open / }).click();
  await expect(page).toHaveURL(/\/Detail$/);
  await page.getByRole('link', { name: 'Link to this book' }).click();
  await expect(page).toHaveURL(book.path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(book.name);

  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(book.path);
    await page.waitForLoadState('networkidle');
    await expect(page.getByText('Loading...')).toHaveCount(0);
    await page.screenshot({ path: `e2e/screenshots/storefront-${label}-book-page.png` });
  }
});

test('a link preview, which runs no JavaScript, reads the book, its cover and its canonical address from the page', async ({
  browser,
  baseURL,
}) => {
  const book = await aBookInStock();
  const crawler = await browser.newContext({ javaScriptEnabled: false });
  const page = await crawler.newPage();
  await page.goto(book.path);
  await expect(page).toHaveTitle(`${book.name} by ${book.author} · Bookshop`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}${book.path}`);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', `${book.name} by ${book.author}`);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /^https:\/\//);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(jsonLd).toMatchObject({ '@type': 'Book', name: book.name, author: { name: book.author } });

  // Crawlers find every book page from robots.txt and the sitemap.
  const robots = await (await page.request.get('/robots.txt')).text();
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  const file = Math.ceil(book.id / 10_000);
  expect(await (await page.request.get(`/sitemaps/books-${file}.xml`)).text()).toContain(`<loc>${baseURL}${book.path}</loc>`);
  await crawler.close();
});

test("a shopper follows an author's name from a book to the author's page, sees the ratings, pages on and opens another book", async ({
  page,
}) => {
  const [author] = await query<{ id: number; name: string; books: number }>(
    `SELECT a.id, a.full_name AS name, count(*)::int AS books FROM authors a JOIN books b ON b.author_id = a.id
     JOIN book_copies c ON c.book_id = b.id AND c.is_available GROUP BY a.id HAVING count(*) > 15 ORDER BY count(*) DESC LIMIT 1`,
  );
  const [copy] = await query<{ id: number; name: string }>(
    `SELECT c.id, b.name FROM book_copies c JOIN books b ON b.id = c.book_id WHERE c.is_available AND b.author_id = $1
     ORDER BY b.ratings_count DESC LIMIT 1`,
    [author!.id],
  );
  await page.goto(bookPagePath(copy!.id, copy!.name));
  await page.getByRole('main').getByRole('link', { name: author!.name, exact: true }).first().click();
  await expect(page).toHaveURL(authorPagePath(author!.id, author!.name));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(author!.name);
  await expect(page.getByText(`${author!.books} books on sale`)).toBeVisible();
  const grid = page.getByRole('region', { name: author!.name });
  await expect(grid.getByRole('article')).toHaveCount(15);
  await expect(grid.getByRole('article').first()).toContainText(/★ \d\.\d \([\d,]+ ratings\)/);
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();

  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await expect(page.getByText('Loading...')).toHaveCount(0);
    await page.screenshot({ path: `e2e/screenshots/storefront-${label}-author-page.png` });
  }

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
  // Page 1's books stay on screen, marked busy, until page 2's arrive.
  await expect(grid).toHaveAttribute('aria-busy', 'false');
  const next = grid.getByRole('article').first();
  const title = (await next.getByRole('heading').textContent())!;
  await next.getByRole('button', { name: /^Open / }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
});
