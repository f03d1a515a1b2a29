import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { components } from '../../api/schema';
import { BusyButton } from '../../components/busy-button';
import { DataTable } from '../../components/data-table';
import { QueryView } from '../../components/query-view';
import { useDocumentTitle } from '../../lib/document-title';
import { dateTime } from '../../lib/format';
import { type AuditFilters, useAuditLog } from './api/get-audit-log';
import { useEmployees } from './api/get-employees';
import { backofficeKeys } from './api/query-keys';
import { type AuditLogFilters, useAuditLogAddress } from './audit-log-address';

type AuditEntry = components['schemas']['AuditEntry'];
type Entity = NonNullable<AuditFilters['entity']>;
type EventType = NonNullable<AuditFilters['type']>;

const ENTITIES: Record<Entity, string> = {
  Author: 'Authors',
  Book: 'Books',
  BookCopy: 'Book copies',
  Order: 'Orders',
  Employee: 'Employees',
  ContactMessage: 'Client messages',
  BookReview: 'Reviews',
  ShopSettings: 'Shop settings',
};
const EVENTS: Record<EventType, string> = {
  backoffice_write: 'Back-office change',
  login_failed: 'Failed sign-in',
  login_locked: 'Sign-in locked',
  password_check_failed: 'Wrong current password',
  refresh_token_reuse: 'Session token reused',
  authorization_refused: 'Access refused',
  csrf_refused: 'Cross-site call refused',
  rate_limited: 'Too many requests',
  password_reset_requested: 'Password reset asked',
  password_reset: 'Password reset',
  second_factor_enrolled: 'Second factor set up',
  second_factor_removed: 'Second factor removed',
  second_factor_failed: 'Wrong second factor',
  step_up_session_ended: 'Session ended after wrong codes',
  second_factor_reset: 'Second factor reset',
  recovery_code_used: 'Recovery code used',
  recovery_codes_renewed: 'Recovery codes renewed',
  employee_signed_in: 'Employee signed in',
  client_signed_in: 'Client signed in',
  client_signed_up: 'Client signed up',
  password_changed: 'Password changed',
  sessions_ended: 'Other sessions ended',
  dead_letter_retried: 'Undelivered e-mail sent again',
};
const PAGE_SIZE = 25;

const show = (value: unknown) =>
  value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** What a back-office write changed, field by field; for other events, their details as they are. */
function Changes({ entry }: { entry: AuditEntry }) {
  const details = entry.details as {
    operation?: string;
    changed?: string[];
    before?: Record<string, unknown>;
    after?: Record<string, unknown>;
  } | null;
  if (!details) return <>—</>;
  if (entry.type !== 'backoffice_write' || !details.changed) return <code>{JSON.stringify(details)}</code>;
  return (
    <ul className="changes">
      <li>{details.operation}</li>
      {details.changed.map((field) => (
        <li key={field}>
          {field}:{' '}
          {details.operation === 'insert'
            ? show(details.after?.[field])
            : `${show(details.before?.[field])} → ${show(details.after?.[field])}`}
        </li>
      ))}
    </ul>
  );
}

/** A filter picked from a fixed list, 'Any' (no filter) first. */
function FilterChoice<Value extends string>({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: Value | undefined;
  choices: Record<Value, string>;
  onChange: (value: Value | '') => void;
}) {
  return (
    <label>
      {label}
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value as Value | '')}>
        <option value="">Any</option>
        {Object.entries<string>(choices).map(([choice, text]) => (
          <option key={choice} value={choice}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * /auditlog (Admin, beyond the spec): who changed what and when, and the security events, newest
 * first. Filters by entity, event, person and day; Older and Newer page through; all of it kept in the
 * address. Read only.
 */
export default function AuditLogPage() {
  useDocumentTitle('Audit Log');
  const employees = useEmployees();
  // The filters applied and the ids each older page started below (so Newer goes back the way Older
  // came), both in the address.
  const [{ filters, older }, show] = useAuditLogAddress(ENTITIES, EVENTS);
  const [draft, setDraft] = useState<AuditLogFilters>(filters);
  // Back or Forward to other filters shows them in the form, not the last ones picked.
  const applied = JSON.stringify(filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `applied` stands for `filters`, a new object at each change of the address.
  useEffect(() => setDraft(filters), [applied]);
  const log = useAuditLog({ ...filters, before: older.at(-1), pageSize: PAGE_SIZE });

  const set = <K extends keyof AuditLogFilters>(key: K, value: AuditLogFilters[K] | '') =>
    setDraft((d) => ({ ...d, [key]: value === '' ? undefined : value }));
  const queryClient = useQueryClient();
  const apply = (e: FormEvent) => {
    e.preventDefault();
    // Filter reads the log as it is now, also on the filters shown (whose page is cached): an Admin
    // watching for an entry presses it to see what came since. Every page kept is stale; the one
    // shown next is read, once: by its new address, or here when the address stays.
    void queryClient.invalidateQueries({ queryKey: backofficeKeys.auditLog.all, refetchType: 'none' });
    if (!show(draft)) void log.refetch();
  };

  return (
    <section>
      <h1>Audit Log</h1>
      <form className="filters" onSubmit={apply}>
        <FilterChoice label="Entity" value={draft.entity} choices={ENTITIES} onChange={(v) => set('entity', v)} />
        <FilterChoice label="Event" value={draft.type} choices={EVENTS} onChange={(v) => set('type', v)} />
        <label>
          Person
          <select value={draft.actor ?? ''} onChange={(e) => set('actor', e.target.value)}>
            <option value="">Anyone</option>
            {/* A person the list no longer has (a link to an employee since deleted): shown, so it can be seen and changed. */}
            {draft.actor && employees.data && !employees.data.some((p) => `employee:${p.id}` === draft.actor) && (
              <option value={draft.actor}>{draft.actor}</option>
            )}
            {employees.data?.map((p) => (
              <option key={p.id} value={`employee:${p.id}`}>
                {p.firstName} {p.lastName} ({p.type})
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={draft.from ?? ''} onChange={(e) => set('from', e.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={draft.to ?? ''} onChange={(e) => set('to', e.target.value)} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <QueryView query={log} what="the audit log" empty={{ text: 'No entries match.', when: (data) => !data.entries.length }}>
        {(data) => (
          <DataTable
            rows={data.entries}
            columns={[
              { label: 'When', cell: (e) => dateTime(e.at) },
              { label: 'Who', cell: (e) => e.actorName ?? e.actor ?? '—' },
              { label: 'Event', cell: (e) => EVENTS[e.type as EventType] ?? e.type },
              { label: 'Entity', cell: (e) => (e.entity ? `${ENTITIES[e.entity as Entity] ?? e.entity} ${e.entityId ?? ''}` : '—') },
              { label: 'Changes', cell: (e) => <Changes entry={e} /> },
              { label: 'Address', cell: (e) => e.address ?? '—' },
            ]}
          />
        )}
      </QueryView>
      <nav className="paging" aria-label="Audit log pages">
        {/* aria-disabled at an end, as Paging's: the press that reached it keeps the focus. */}
        <BusyButton busy={false} atLimit={!older.length} onClick={() => show(filters, older.slice(0, -1))}>
          Newer
        </BusyButton>
        <BusyButton
          busy={false}
          atLimit={!log.data?.nextBefore}
          onClick={() => {
            const next = log.data?.nextBefore;
            if (next) show(filters, [...older, next]);
          }}
        >
          Older
        </BusyButton>
      </nav>
    </section>
  );
}
