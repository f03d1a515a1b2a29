// Finding a book the way shoppers do (issue 30): suggestions in the search box used with the
// keyboard alone, and a category narrowed by a sort and filters whose state lives in the address
// (a reload keeps it, Back undoes a choice, Clear filters is one click). axe finds nothing on them.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
async function expectNoViolations(page: Page, screen: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(found, `axe on ${screen}`).toEqual([]);
}

test('a shopper types part of a name, picks a suggestion with the arrow keys and Enter, and lands on the author or the book', async ({
  page,
}) => {
  await page.goto('/');
  const box = page.getByRole('combobox', { name: 'Search books' });
  await box.click();
  await page.keyboard.type('r');
  // One letter asks for nothing.
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.type('owl');
  const list = page.getByRole('listbox', { name: 'Suggestions' });
  await expect(list.getByRole('option').first()).toContainText('J.K. Rowling');
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  expect(await list.getByRole('option').count()).toBeLessThanOrEqual(8);
  await expectNoViolations(page, 'the search box with its suggestions');

  await page.keyboard.press('ArrowDown');
  const first = list.getByRole('option').first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/authors\/\d+-j-k-rowling$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('J.K. Rowling');

  // Escape closes the list; the text stays and Enter searches it. The list waits for the book's
  // suggestions: until they come, the last list ("rowl") or none is shown.
  await box.fill('harry pot');
  const book = list
    .getByRole('option')
    .filter({ hasText: /^Harry Potter/ })
    .first();
  await expect(book).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expect(box).toHaveValue('harry pot');

  // Down past the author reaches a book; Enter opens its page.
  await page.keyboard.press('ArrowDown');
  await expect(book).toBeVisible();
  const title = (await book.textContent())!.replace(/J\.K\. Rowling$/, '').trim();
  while ((await book.getAttribute('aria-selected')) !== 'true') await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/books\/\d+-harry-potter/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
});

test('a shopper narrows a category to in-stock books of 4 stars and up, cheapest first, shares the address, goes Back, and clears the filters', async ({
  page,
}) => {
  await page.goto('/Fantasy');
  const filters = page.getByRole('complementary', { name: 'Sort and filters' });
  await expect(filters.getByText(/^[\d,]+ books$/)).toBeVisible();
  await filters.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Price: low to high' });
  await expect(page).toHaveURL(/\/Fantasy\?sort=price-asc$/);
  await filters.getByRole('checkbox', { name: /In stock only/ }).click();
  await expect(page).toHaveURL(/\/Fantasy\?sort=price-asc&inStock=1$/);
  await filters.getByRole('radio', { name: /4 stars and up/ }).click();
  await expect(page).toHaveURL(/\/Fantasy\?sort=price-asc&inStock=1&minRating=4$/);
  // The address changes before the screen: the choice shown checked is the list's own state.
  await expect(filters.getByRole('radio', { name: /4 stars and up/ })).toBeChecked();

  const prices = async () =>
    (
      await page
        .getByRole('region', { name: 'Fantasy' })
        .getByText(/^\$\d+\.\d\d$/)
        .allTextContents()
    ).map((p) => Number(p.slice(1)));
  await expect(page.getByRole('region', { name: 'Fantasy' })).toHaveAttribute('aria-busy', 'false');
  await expect.poll(async () => (await prices()).length).toBeGreaterThan(0);
  const shown = await prices();
  expect(shown).toEqual([...shown].sort((a, b) => a - b));
  await expectNoViolations(page, 'a filtered category');

  // The address is the whole state: a fresh load shows the same choices.
  await page.reload();
  await expect(filters.getByRole('checkbox', { name: /In stock only/ })).toBeChecked();
  await expect(filters.getByRole('radio', { name: /4 stars and up/ })).toBeChecked();
  await expect(filters.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price-asc');

  await page.goBack();
  await expect(page).toHaveURL(/\/Fantasy\?sort=price-asc&inStock=1$/);
  await expect(filters.getByRole('radio', { name: /4 stars and up/ })).not.toBeChecked();

  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/Fantasy\?sort=price-asc$/);
  await expect(filters.getByRole('checkbox', { name: /In stock only/ })).not.toBeChecked();
});
