// The sitemap protocol (sitemaps.org): /sitemap.xml is an index of files, one of the categories and
// one per SITEMAP_BOOKS_PER_FILE copy ids of book pages, so a million books make a hundred files
// of at most ten thousand URLs each (the protocol allows 50,000) and no file grows with the catalog.
// robots.txt points crawlers to it and away from the screens that are a person's own.
import { escapeMarkup } from '../../lib/text.ts';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export const sitemapFilePath = (file: number) => `/sitemaps/books-${file}.xml`;
export const CATEGORIES_SITEMAP_PATH = '/sitemaps/categories.xml';

/** The index: the categories' file, then every book file. */
export function sitemapIndex(origin: string, bookFiles: number): string {
  const files = [CATEGORIES_SITEMAP_PATH, ...Array.from({ length: bookFiles }, (_, i) => sitemapFilePath(i + 1))];
  const entries = files.map((file) => `<sitemap><loc>${escapeMarkup(origin + file)}</loc></sitemap>`);
  return `${XML_HEAD}\n<sitemapindex xmlns="${NAMESPACE}">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

/** A file of page addresses (paths on `origin`). */
export function urlSet(origin: string, paths: string[]): string {
  const entries = paths.map((path) => `<url><loc>${escapeMarkup(origin + path)}</loc></url>`);
  return `${XML_HEAD}\n<urlset xmlns="${NAMESPACE}">\n${entries.join('\n')}${entries.length ? '\n' : ''}</urlset>\n`;
}

/** The screens that show a person's own things, or nothing without one, are not for crawling. */
const PRIVATE_PATHS = [
  '/api/',
  '/cart',
  '/account',
  '/orders',
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/wishlist',
  '/Detail',
  '/searchresult',
];

export function robotsTxt(origin: string): string {
  return ['User-agent: *', ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`), '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}
