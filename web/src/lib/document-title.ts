import { useEffect } from 'react';

export const SHOP_NAME = 'Bookshop';

/** The tab's title for a screen: "Fantasy · Bookshop", or the shop's name alone for Home. */
export function useDocumentTitle(screen?: string) {
  useEffect(() => {
    document.title = screen ? `${screen} · ${SHOP_NAME}` : SHOP_NAME;
  }, [screen]);
}
