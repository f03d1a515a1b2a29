// Everything the seed writes, derived deterministically (fixed PRNG seed) from books.csv and the day
// the seed runs, so seeding twice on one day gives the same data. The people's dates count back from
// that day, so the dashboard's 30-day charts are full on a fresh start.

import { bookSearchText } from '../api/src/lib/text.ts';
import { passwordHasher } from '../api/src/modules/accounts/passwords.ts';
import type { CsvBook } from './books-csv.ts';

export const CATEGORIES = [
  'Art',
  'Astronomy',
  'Autobiography',
  'Biography',
  'Fantasy',
  'Mystery',
  'Philosophy',
  'History',
  'Biology',
  'Spirituality',
];
const DAY = 24 * 60 * 60 * 1000;

/** The seed's dates count back from the start (00:00 UTC) of the day it runs, or of `day` when given. */
export function seedAnchor(day: Date | string = new Date()) {
  const at = new Date(day);
  if (Number.isNaN(at.getTime())) throw new Error(`Not a day: ${String(day)}`);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@bookshop.test', password: 'Admin123!' },
  seller: { email: 'seller@bookshop.test', password: 'Seller123!' },
  client: { email: 'client@bookshop.test', password: 'Client123!', firstName: 'Demo', lastName: 'Client', phoneNumber: '0555123456' },
};

/** The demo accounts as the login form takes them: what the tests sign in with. */
export const DEMO_LOGINS = {
  admin: { account: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password },
  seller: { account: DEMO_ACCOUNTS.seller.email, password: DEMO_ACCOUNTS.seller.password },
  client: { account: DEMO_ACCOUNTS.client.email, password: DEMO_ACCOUNTS.client.password },
};

/** mulberry32: a small, fast, well-distributed PRNG; the fixed seed makes every run identical. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: T[]) => list[Math.floor(next() * list.length)]!,
  };
}

export function describeBook(book: CsvBook): string {
  const year = book.year === null ? '' : book.year < 0 ? `, first written around ${-book.year} BC` : `, first published in ${book.year}`;
  const rating = book.ratingsCount
    ? ` Readers rate it ${(book.ratingsSum / book.ratingsCount).toFixed(2)} out of 5 across ${book.ratingsCount.toLocaleString('en-US')} ratings.`
    : '';
  const shelf = book.category.toLowerCase();
  return `${book.title} by ${book.mainAuthor}${year}. ${/^[aeiou]/.test(shelf) ? 'An' : 'A'} ${shelf} title from our shelves.${rating}`;
}

export interface SeedPlan {
  authors: string[];
  books: {
    isbn13: string | null;
    name: string;
    publishedAt: string | null;
    description: string;
    imageUrl: string | null;
    searchText: string;
    ratingsCount: number;
    ratingsSum: number;
    authorIndex: number;
    typeIndex: number;
  }[];
  copies: { price: string; quantity: number }[];
  employees: {
    firstName: string;
    lastName: string;
    gender: 'Male' | 'Female';
    birthDate: string;
    email: string;
    phoneNumber: string;
    address: string;
    password: string;
    role: 'Admin' | 'Seller';
  }[];
  clients: { firstName: string; lastName: string; phoneNumber: string; account: string; createdAt: Date }[];
  orders: { clientIndex: number; status: string; address: string; createdAt: Date; items: { copyIndex: number; quantity: number }[] }[];
  messages: { userName: string; account: string; message: string; createdAt: Date }[];
}

const FIRST = [
  'Amine',
  'Yasmine',
  'Karim',
  'Lina',
  'Sofiane',
  'Meriem',
  'Walid',
  'Nour',
  'Riad',
  'Sara',
  'Mehdi',
  'Imane',
  'Yacine',
  'Amel',
  'Bilal',
  'Rania',
  'Omar',
  'Salima',
  'Nassim',
  'Leila',
];
const LAST = [
  'Benali',
  'Haddad',
  'Mansouri',
  'Bouzid',
  'Cherif',
  'Kaci',
  'Belkacem',
  'Saadi',
  'Brahimi',
  'Toumi',
  'Zerrouki',
  'Meziane',
  'Hamdi',
  'Rahmani',
  'Ouali',
  'Lounes',
];
const CITIES = ['Algiers', 'Oran', 'Constantine', 'Annaba', 'Blida', 'Setif', 'Tlemcen', 'Bejaia', 'Batna', 'Tizi Ouzou'];
const STATUSES: [string, number][] = [
  ['delivered', 55],
  ['success', 10],
  ['Shipped', 10],
  ['Processing', 8],
  ['pending', 10],
  ['cancelled', 5],
  ['failed', 2],
];

const DEFAULT_CLIENT_COUNT = 300;
/** The name of the seed's client number `i` (the demo client is number 0). */
const seedPerson = (i: number) => ({ firstName: FIRST[i % FIRST.length]!, lastName: LAST[(i * 7) % LAST.length]! });
/** The account of the seed's client number `i` (1 and on), who signs in with the demo client's published password. */
const seedClientAccount = (i: number) => {
  const { firstName, lastName } = seedPerson(i);
  return `${firstName}.${lastName}.${i}@example.com`.toLowerCase();
};
/** The seed's clients' accounts, the demo client's first: every one of them has its published password. */
export const seedClientAccounts = (clientCount = DEFAULT_CLIENT_COUNT) => [
  DEMO_ACCOUNTS.client.email,
  ...Array.from({ length: clientCount - 1 }, (_, n) => seedClientAccount(n + 1)),
];

/** `day`: the day the seed counts back from (default today); the orders end the day before it. */
export function planSeed(
  csv: CsvBook[],
  { day, clientCount = DEFAULT_CLIENT_COUNT, orderCount = 3000 }: { day?: Date | string; clientCount?: number; orderCount?: number } = {},
): SeedPlan {
  const SEED_ANCHOR = seedAnchor(day);
  const rnd = prng(20261122);
  const authors = [...new Set(csv.map((b) => b.mainAuthor))].sort();
  const authorIndex = new Map(authors.map((a, i) => [a, i]));
  const books = csv.map((b) => ({
    isbn13: b.isbn13 || null,
    name: b.title,
    publishedAt: b.year && b.year > 0 ? `${String(b.year).padStart(4, '0')}-01-01` : null,
    description: describeBook(b),
    imageUrl: b.imageUrl,
    searchText: bookSearchText(b.title, b.mainAuthor),
    ratingsCount: b.ratingsCount,
    ratingsSum: b.ratingsSum,
    authorIndex: authorIndex.get(b.mainAuthor)!,
    typeIndex: CATEGORIES.indexOf(b.category),
  }));
  // Prices from $6.99 to $34.99 ending in .99; about 3% of titles are out of stock.
  const copies = csv.map(() => ({ price: `${rnd.int(6, 34)}.99`, quantity: rnd.next() < 0.03 ? 0 : rnd.int(3, 60) }));

  const phone = () => `0${rnd.pick(['5', '6', '7'])}${String(rnd.int(0, 99999999)).padStart(8, '0')}`;
  const employees: SeedPlan['employees'] = [
    {
      firstName: 'Ada',
      lastName: 'Admin',
      gender: 'Female',
      birthDate: '1985-04-12',
      email: DEMO_ACCOUNTS.admin.email,
      phoneNumber: '0661000001',
      address: '1 Rue Didouche Mourad, Algiers',
      password: DEMO_ACCOUNTS.admin.password,
      role: 'Admin',
    },
    {
      firstName: 'Sami',
      lastName: 'Seller',
      gender: 'Male',
      birthDate: '1992-09-30',
      email: DEMO_ACCOUNTS.seller.email,
      phoneNumber: '0661000002',
      address: '12 Boulevard de la Soummam, Oran',
      password: DEMO_ACCOUNTS.seller.password,
      role: 'Seller',
    },
  ];
  const clients: SeedPlan['clients'] = [
    {
      firstName: DEMO_ACCOUNTS.client.firstName,
      lastName: DEMO_ACCOUNTS.client.lastName,
      phoneNumber: DEMO_ACCOUNTS.client.phoneNumber,
      account: DEMO_ACCOUNTS.client.email,
      createdAt: new Date(SEED_ANCHOR.getTime() - 400 * DAY),
    },
  ];
  for (let i = 1; i < clientCount; i++) {
    clients.push({
      ...seedPerson(i),
      phoneNumber: phone(),
      account: seedClientAccount(i),
      createdAt: new Date(SEED_ANCHOR.getTime() - rnd.int(0, 365 * DAY)),
    });
  }

  // Orders favour popular books (the CSV lists each category by popularity): a skewed pick.
  const byPopularity = books
    .map((b, i) => ({ i, n: b.ratingsCount }))
    .sort((a, b) => b.n - a.n)
    .map((x) => x.i);
  const popularCopy = () => byPopularity[Math.floor(byPopularity.length * rnd.next() ** 3)]!;
  const statusBag = STATUSES.flatMap(([s, w]) => Array<string>(w).fill(s));
  const orders: SeedPlan['orders'] = [];
  for (let i = 0; i < orderCount; i++) {
    const clientIndex = rnd.int(0, clients.length - 1);
    const seen = new Set<number>();
    const items: SeedPlan['orders'][number]['items'] = [];
    for (let n = rnd.int(1, 3); items.length < n; ) {
      const copyIndex = popularCopy();
      if (seen.has(copyIndex)) continue;
      seen.add(copyIndex);
      items.push({ copyIndex, quantity: rnd.next() < 0.8 ? 1 : rnd.int(2, 3) });
    }
    const createdAt = new Date(
      Math.max(clients[clientIndex]!.createdAt.getTime(), SEED_ANCHOR.getTime() - rnd.int(1, 365) * DAY) + rnd.int(0, DAY - 1),
    );
    orders.push({
      clientIndex,
      status: rnd.pick(statusBag),
      address: `${rnd.int(1, 120)} Rue ${rnd.pick(LAST)}, ${rnd.pick(CITIES)}`,
      createdAt,
      items,
    });
  }
  orders.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

  const messages = [
    'Do you ship to Ouargla?',
    'Can I order a book you do not list?',
    'Thank you, my order arrived quickly!',
    'Is there a gift wrapping option?',
    'When will Dune be back in stock?',
  ].map((message, i) => ({
    userName: `${seedPerson(i + 3).firstName} ${seedPerson(i + 3).lastName}`,
    account: `reader${i + 1}@example.com`,
    message,
    createdAt: new Date(SEED_ANCHOR.getTime() - (i + 1) * 3 * DAY),
  }));

  return { authors, books, copies, employees, clients, orders, messages };
}

/** Passwords are hashed once per distinct password (every generated client shares the demo one). */
/** Hashed as the API hashes, at a low cost (the seed is a demo); the API rehashes at its cost on sign-in. */
export async function hashPasswords(passwords: string[], cost = 10) {
  const unique = [...new Set(passwords)];
  const hasher = passwordHasher(cost);
  const hashes = await Promise.all(unique.map((p) => hasher.hash(p)));
  return new Map(unique.map((p, i) => [p, hashes[i]!]));
}
