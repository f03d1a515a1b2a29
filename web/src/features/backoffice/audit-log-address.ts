// The audit log's filters and the pages gone back through, kept in the address
// (?entity=Book&actor=employee:3&from=2026-11-01&older=812,790): a reload, a link shared with another
// Admin, or Back and Forward come back to the same entries. Older, Newer and a Filter that changes
// them are each a new history entry. What the address says is checked as the screen's own choices
// are: a value the screen could not have picked is left out rather than sent.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AuditFilters } from './api/get-audit-log';

type Entity = NonNullable<AuditFilters['entity']>;
type EventType = NonNullable<AuditFilters['type']>;
type FilterKey = 'entity' | 'type' | 'actor' | 'from' | 'to';
export type AuditLogFilters = Pick<AuditFilters, FilterKey>;

/** A day of the calendar as the date field writes it: 2026-02-31 is no day, and the server would refuse it. */
const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().startsWith(value);
const ACTOR = /^employee:[1-9]\d{0,9}$/;
/** An entry's id: a whole number a page could have started below, exact in JavaScript. */
const isId = (value: string) => /^[1-9]\d*$/.test(value) && Number.isSafeInteger(Number(value));
/** The Older steps an address keeps: Newer goes back through them, and past the first of them to the newest page. */
const OLDER_MOST = 100;

const FILTER_KEYS: readonly FilterKey[] = ['entity', 'type', 'actor', 'from', 'to'];

export function useAuditLogAddress(entities: Record<Entity, string>, events: Record<EventType, string>) {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const state = useMemo(() => {
    const read = new URLSearchParams(search);
    const pick = (key: FilterKey, valid: (value: string) => boolean) => {
      const value = read.get(key);
      return value !== null && valid(value) ? value : undefined;
    };
    const filters: AuditLogFilters = {
      entity: pick('entity', (v) => Object.hasOwn(entities, v)) as Entity | undefined,
      type: pick('type', (v) => Object.hasOwn(events, v)) as EventType | undefined,
      actor: pick('actor', (v) => ACTOR.test(v)),
      from: pick('from', isDay),
      to: pick('to', isDay),
    };
    for (const key of FILTER_KEYS) if (filters[key] === undefined) delete filters[key];
    const older = (read.get('older') ?? '').split(',').filter(isId).slice(-OLDER_MOST).map(Number);
    return { filters, older };
  }, [search, entities, events]);

  /** Shows these filters, gone back through the pages that started below `older`'s ids; whether the address changed. */
  const show = useCallback(
    (filters: AuditLogFilters, older: number[] = []) => {
      const next = new URLSearchParams();
      for (const key of FILTER_KEYS) {
        const value = filters[key];
        if (value) next.set(key, value);
      }
      if (older.length) next.set('older', older.slice(-OLDER_MOST).join(','));
      // Filter pressed on the filters shown adds no step that Back would seem to skip.
      const unchanged = next.toString() === search;
      setParams(next, { replace: unchanged });
      return !unchanged;
    },
    [setParams, search],
  );
  return [state, show] as const;
}
