// A screen that cannot be shown says so in its place, with a way out, instead of taking the whole app
// down: React unmounts the root on an error no boundary catches, leaving a white page. The commonest
// cause is a deploy: a tab opened before it asks for a screen's chunk the new build no longer has.
import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

/** What browsers say when a lazy screen's module cannot be fetched (Chromium, Firefox, Safari), or Vite when its stylesheet cannot. */
const CHUNK_LOAD_FAILURE = /dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export const SCREEN_FAILURE_TEXT = {
  updated: 'This page could not be loaded: the shop may have been updated since you opened it.',
  broken: 'Something went wrong while showing this page.',
};

class Boundary extends Component<{ children: ReactNode; place: string }, { error: Error | null; place: string }> {
  override state = { error: null as Error | null, place: this.props.place };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  /** Another address is another screen: it gets its own chance. */
  static getDerivedStateFromProps(props: { place: string }, state: { place: string }) {
    return props.place === state.place ? null : { error: null, place: props.place };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" className="load-error">
        <p>{CHUNK_LOAD_FAILURE.test(error.message) ? SCREEN_FAILURE_TEXT.updated : SCREEN_FAILURE_TEXT.broken}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}

/** Catches what the screens under it throw while loading or rendering, until the address changes. */
export function ScreenBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary place={pathname}>{children}</Boundary>;
}
