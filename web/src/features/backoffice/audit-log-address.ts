// The audit log's filters and the pages gone back through, kept in the address
// (?entity=Book&actor=employee:3&from=2026-11-01&older=812,790): a reload, a link shared with another
// Admin, or Back and Forward come back to the same entries. Each Filter, Older and Newer is a new
// history entry. What the address says is checked as the screen's own choices are: a value the screen
// could not have picked is left out rather than sent.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AuditFilters } from './api/get-audit-log';

type Entity = NonNullable<AuditFilters['entity']>;
type EventType = NonNullable<AuditFilters['type']>;
type FilterKey = 'entity' | 'type' | 'actor' | 'from' | 'to';
export type AuditLogFilters = Pick<AuditFilters, FilterKey>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ACTOR = /^employee:[1-9]\d{0,9}$/;
const ID = /^[1-9]\d{0,18}$/;
/** The Older steps an address keeps: beyond them, Newer starts again from the newest page. */
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
      from: pick('from', (v) => DAY.test(v)),
      to: pick('to', (v) => DAY.test(v)),
    };
    for (const key of FILTER_KEYS) if (filters[key] === undefined) delete filters[key];
    const older = (read.get('older') ?? '')
      .split(',')
      .filter((id) => ID.test(id))
      .slice(-OLDER_MOST)
      .map(Number);
    return { filters, older };
  }, [search, entities, events]);

  /** Shows these filters, gone back through the pages that started below `older`'s ids. */
  const show = useCallback(
    (filters: AuditLogFilters, older: number[] = []) => {
      const next = new URLSearchParams();
      for (const key of FILTER_KEYS) {
        const value = filters[key];
        if (value) next.set(key, value);
      }
      if (older.length) next.set('older', older.slice(-OLDER_MOST).join(','));
      setParams(next);
    },
    [setParams],
  );
  return [state, show] as const;
}
