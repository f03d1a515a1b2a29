// A new screen takes the focus, as a page load would: the main region is focused whenever the address
// moves to another screen (not on the first load, nor on a change of sort, filter or page, which are
// the same screen; a new search's text is a new screen). Otherwise focus stayed on the link just followed, inside a menu that closed, or
// fell to the page's start when the screen it was in was replaced, and a screen reader said nothing.
import { SEARCH_RESULTS_PATH } from '@bookshop/rules/page-addresses';
import { type RefObject, useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

export function useFocusOnNavigation(main: RefObject<HTMLElement | null>) {
  const { pathname, search } = useLocation();
  const navigationType = useNavigationType();
  // A search's text is what its screen is about: a new search from the results page is a new screen
  // (which finding nothing would otherwise leave unsaid), though its sort and filters are not.
  const searchText = pathname.toLowerCase() === SEARCH_RESULTS_PATH ? new URLSearchParams(search).get('q') : null;
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the focus moves when the screen (its path, or a search's text) does.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      // A page load (or Back into it) leaves the focus where the browser puts it; a layout that mounts
      // because the app went to it (the back-office after signing in, the storefront after signing
      // out) is a new screen like any other.
      if (navigationType === 'POP') return;
    }
    // A screen followed to starts at its top, as a loaded page does; Back and Forward keep the place
    // the browser restores. The focus itself scrolls nothing.
    if (navigationType !== 'POP') window.scrollTo({ top: 0 });
    main.current?.focus({ preventScroll: true });
  }, [pathname, searchText, main]);
}

/**
 * Moves the focus to the screen's main region, scrolling nothing: where a control just used has left
 * the page (its dialog's opener, the book it was under) and the focus would fall to the document's start.
 */
export const focusMainRegion = () => document.querySelector<HTMLElement>('main')?.focus({ preventScroll: true });
