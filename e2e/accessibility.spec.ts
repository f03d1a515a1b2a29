// axe-core on every screen, as each one looks once its data has loaded: WCAG 2.1 A and AA plus
// axe's best practices. Any violation fails the story (the issue asks for no serious or critical one;
// the moderate ones, heading order and duplicate landmarks, are fixed too), naming rule and elements.
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page, Route } from '@playwright/test';
import { BACKOFFICE_PATHS, DEMO, expect, newDemoPasswordClient, query, test } from './fixtures.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

async function expectNoViolations(page: Page, screen: string) {
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Loading...')).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(found, `axe on ${screen}`).toEqual([]);
}

test('a visitor using assistive technology meets no accessibility problem axe can find on any storefront screen', async ({ page }) => {
  // A dozen screens, each loaded and analysed: more than the default minute on a busy 2-core machine.
  test.setTimeout(180_000);
  const [copy] = await query<{ id: number; author: string }>(
    `SELECT c.id, a.full_name AS author FROM book_copies c JOIN books b ON b.id = c.book_id JOIN authors a ON a.id = b.author_id
     WHERE c.is_available AND c.quantity > 0 ORDER BY c.id LIMIT 1`,
  );
  for (const screen of [
    '/',
    '/Fantasy',
    '/about',
    '/contact',
    '/login',
    '/signup',
    '/forgot-password',
    '/reset-password?mode=resetPassword&oobCode=x',
  ]) {
    await page.goto(screen);
    await expectNoViolations(page, screen);
  }
  await page.evaluate((id) => localStorage.setItem('BookId', String(id)), copy!.id);
  await page.goto('/Detail');
  await expectNoViolations(page, '/Detail');
  // The book's own page, and its author's, reached as a shopper would: by their links.
  await page.getByRole('link', { name: 'Link to this book' }).click();
  await expect(page).toHaveURL(/\/books\/\d+-/);
  await expectNoViolations(page, 'a book page');
  await page.getByRole('main').getByRole('link', { name: copy!.author, exact: true }).first().click();
  await expect(page).toHaveURL(/\/authors\/\d+/);
  await expectNoViolations(page, 'an author page');

  await page.getByLabel('Search books').fill('harry');
  await page.getByLabel('Search books').press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: /^Search Results for/ })).toBeVisible();
  await expectNoViolations(page, '/searchresult');

  await page.goto('/');
  await page.getByRole('button', { name: 'Add to Cart' }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoViolations(page, 'the quick view');
});

test("a client using assistive technology meets no accessibility problem axe can find on the client's own screens", async ({
  page,
  loggedInAs,
}) => {
  await loggedInAs(DEMO.client);
  for (const screen of ['/cart', '/orders', '/account', '/wishlist']) {
    await page.goto(screen);
    await expectNoViolations(page, screen);
  }
});

test('an Admin using assistive technology meets no accessibility problem axe can find on any back-office screen', async ({
  page,
  loggedInAs,
}) => {
  await loggedInAs(DEMO.admin);
  for (const screen of BACKOFFICE_PATHS) {
    await page.goto(screen);
    await expectNoViolations(page, screen);
  }
});

test('a keyboard user whose login is refused keeps the focus on Login, to correct the password and try again', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Account').fill('keyboard-user@example.com');
  await page.getByLabel('Password').fill('not the password');
  // The answer waits until the button has been seen busy, so the check below is of a button that was.
  let answer: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  let sent = 0;
  await page.route('**/api/public/authentication/login', async (route) => {
    sent += 1;
    await answered;
    await route.continue();
  });
  await page.getByLabel('Password').press('Tab');
  const login = page.getByRole('button', { name: 'Login' });
  await expect(login).toBeFocused();
  await page.keyboard.press('Enter');
  const busy = page.getByRole('button', { name: 'Logging in...' });
  await expect(busy).toBeDisabled();
  // Pressed again while busy, it sends nothing more.
  await page.keyboard.press('Enter');
  answer();
  await expect(page.getByRole('alert')).toHaveText('Invalid account or password.');
  await expect(login).toBeFocused();
  expect(sent).toBe(1);
});

test('a screen-reader user whose sign-up is refused lands on the first field it names, told why, and no axe problem is on the refused form', async ({
  page,
}) => {
  await page.goto('/signup');
  await page.getByLabel('First Name').fill('Sam');
  await page.getByLabel('Algerian Phone Number').fill('0661234567');
  await page.getByRole('button', { name: 'Sign up' }).press('Enter');
  await expect(page.getByRole('alert')).toHaveText('All fields are required.');
  const lastName = page.getByLabel('Last Name');
  await expect(lastName).toBeFocused();
  await expect(lastName).toHaveAttribute('aria-invalid', 'true');
  await expect(lastName).toHaveAccessibleDescription('All fields are required.');
  await expect(page.getByLabel('First Name')).toHaveAttribute('aria-invalid', 'false');
  // Checked while the refusal shows (it goes after 3 s): the marked fields and their description pass axe.
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
});

test('a keyboard shopper adds a book to the cart, raises its quantity twice and lowers it to 1, the focus staying on the button each time', async ({
  page,
  loggedInAs,
}) => {
  await loggedInAs(await newDemoPasswordClient('keyboard', { firstName: 'Kim', lastName: 'Keys' }));
  const [copy] = await query<{ id: number; name: string }>(
    `SELECT c.id, b.name FROM book_copies c JOIN books b ON b.id = c.book_id
     WHERE c.is_available AND c.quantity >= 5 ORDER BY c.id LIMIT 1`,
  );
  // Each change's answer is held until its button has been seen busy, so the focus is checked on a button that was.
  const held: (() => void)[] = [];
  const holdChanges = async (route: Route) => {
    if (route.request().method() !== 'GET') await new Promise<void>((resolve) => held.push(resolve));
    await route.continue();
  };
  /** Presses Enter on `button`, free and focused, sees it busy (it cannot be pressed), then lets its answer go. */
  const pressWhileFocused = async (button: Locator) => {
    await expect(button).toBeEnabled(); // neither disabled nor aria-disabled
    await expect(button).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(button).toBeDisabled(); // disabled or aria-disabled: Playwright's check takes both
    await expect.poll(() => held.length).toBe(1);
    held.shift()!();
  };

  await page.evaluate((id) => localStorage.setItem('BookId', String(id)), copy!.id);
  await page.goto('/Detail');
  await page.route(/\/api\/client\/cart(\/\d+)?$/, holdChanges);
  const add = page.getByRole('button', { name: 'Add to Cart' });
  await expect(add).toBeEnabled(); // once the session is known
  await add.focus();
  await pressWhileFocused(add);
  await expect(page.getByText('Added to cart successfully!')).toBeVisible();
  await expect(add).toBeFocused();

  await page.goto('/cart');
  const stepper = page.getByRole('group', { name: `Quantity of ${copy!.name}`, exact: true });
  const plus = stepper.getByRole('button', { name: 'Increase quantity' });
  const quantity = stepper.getByLabel('Quantity', { exact: true });
  await expect(plus).toBeEnabled();
  await plus.focus();
  for (const expected of ['2', '3']) {
    await pressWhileFocused(plus);
    await expect(quantity).toHaveText(expected);
    await expect(plus).toBeFocused();
  }
  // Down to 1, where minus refuses more presses but keeps the focus the last one left on it.
  const minus = stepper.getByRole('button', { name: 'Decrease quantity' });
  await minus.focus();
  for (const expected of ['2', '1']) {
    await pressWhileFocused(minus);
    await expect(quantity).toHaveText(expected);
    await expect(minus).toBeFocused();
  }
  await expect(minus).toHaveAttribute('aria-disabled', 'true');
});
