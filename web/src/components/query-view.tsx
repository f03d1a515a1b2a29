// One query's states as every list screen shows them, in one place so that none of them forgets
// one: a screen that skipped the error state said "No orders found." when the list had failed.
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadError } from './load-error';

interface QueryViewProps<T> {
  query: UseQueryResult<T>;
  /** What could not be loaded, as "Could not load {what}." reads. */
  what: string;
  /** What an answer that holds nothing says, and how to tell it holds nothing. */
  empty?: { text: ReactNode; when: (data: T) => boolean };
  loadingText?: string;
  children: (data: T) => ReactNode;
}

/** Loading, failed (with Retry), empty, or the data given to `children`. */
export function QueryView<T>({ query, what, empty, loadingText = 'Loading...', children }: QueryViewProps<T>) {
  if (query.isPending) return <p className="muted">{loadingText}</p>;
  if (query.isError) return <LoadError what={what} error={query.error} onRetry={() => void query.refetch()} />;
  if (empty?.when(query.data)) return <p className="empty">{empty.text}</p>;
  return children(query.data);
}
