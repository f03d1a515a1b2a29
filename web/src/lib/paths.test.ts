// The server tells the app's one-segment screens from category pages (/Fantasy) by the lists in
// @bookshop/rules/page-addresses: a screen missing there would be answered 404 as an unknown category.
import { BACKOFFICE_SCREEN_SEGMENTS, STOREFRONT_SCREEN_SEGMENTS } from '@bookshop/rules/page-addresses';
import { expect, it } from 'vitest';
import { paths } from './paths';

const oneSegment = (values: unknown[]) =>
  values
    .filter((value): value is string => typeof value === 'string' && /^\/[^/:]+$/.test(value))
    .map((path) => path.slice(1).toLowerCase())
    .sort();

it("names every one-segment screen of the storefront and of the back-office in the server's lists", () => {
  const { backoffice, ...storefront } = paths;
  expect(oneSegment(Object.values(storefront))).toEqual([...STOREFRONT_SCREEN_SEGMENTS].sort());
  expect(oneSegment(Object.values(backoffice))).toEqual([...BACKOFFICE_SCREEN_SEGMENTS].sort());
});
