import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { catalogKeys } from '../../../lib/query-keys';

/** The four home lists of spec 2.3, in the order shown. */
export const HOME_LISTS = [
  { key: 'recommended', title: 'Recommended', path: '/api/public/book-copy/recommended/' },
  { key: 'top-rated', title: 'Top Rated', path: '/api/public/book-copy/top-rated/' },
  { key: 'best-sellers', title: 'Our Bestsellers', path: '/api/public/book-copy/best-sellers/' },
  { key: 'new-releases', title: 'New Releases', path: '/api/public/book-copy/new-releases/' },
] as const;

export type HomeListPath = (typeof HOME_LISTS)[number]['path'];

export const homeListQuery = (path: HomeListPath) =>
  queryOptions({
    queryKey: catalogKeys.home(path),
    queryFn: async () =>
      (await unwrap(api.GET(path))).map((b) => ({
        id: b.id,
        name: b.name,
        imageUrl: b.imageUrl,
        authorName: b.authorName,
        authorId: b.authorId,
        price: b.price,
      })),
  });

export const useHomeList = (path: HomeListPath) => useQuery(homeListQuery(path));
