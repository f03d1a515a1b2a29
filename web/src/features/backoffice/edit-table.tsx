// The back-office's inline-edit table (authors, books, book copies): Edit opens a row edit, Save
// sends it, Cancel discards; Delete asks first.
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { BusyButton } from '../../components/busy-button';
import { type DataColumn, DataTable } from '../../components/data-table';
import { LoadError } from '../../components/load-error';
import { focusMainRegion } from '../../lib/focus-on-navigation';
import { useRunOncePer } from '../../lib/use-submit-once';
import type { AdminList } from './use-admin-list';

export interface Column<Row> {
  key: keyof Row & string;
  label: string;
  /** How the cell reads; the raw value by default. */
  show?: (row: Row) => ReactNode;
  /** Editable columns give their input type. */
  edit?: 'text' | 'number' | 'date' | 'checkbox';
}

export function EditTable<Row extends { id: number }>({
  list: { rows, isPending, loadFailure },
  columns,
  deleteQuestion,
  onSave,
  onDelete,
  empty,
  what,
}: {
  /** The screen's rows as useAdminList loads them: its pages or its search. */
  list: Pick<AdminList<Row>, 'rows' | 'isPending' | 'loadFailure'>;
  columns: Column<Row>[];
  deleteQuestion: string;
  /**
   * Saves the draft of the row as it was opened: true when saved, false when refused, or the row as
   * it is now with a new draft to keep editing on top of it (it changed since it was opened).
   */
  onSave: (opened: Row, draft: Row) => Promise<boolean | { opened: Row; draft: Row }>;
  /** Deletes the row: false when refused. Its Delete is busy until this settles, and sends once. */
  onDelete: (row: Row) => Promise<boolean>;
  /** What an empty answer says (the spec's "No author found."); a load that failed is said with a Retry instead. */
  empty: string;
  /** What the rows are, as "Could not load {what}." reads. */
  what: string;
}) {
  // Every row's buttons have the same names (Edit, Delete): each is described by its row's ID, which a
  // screen reader says after the name, so ten Deletes in a row are told apart.
  const rowLabel = useId();
  const [editing, setEditing] = useState<number | null>(null);
  const [draft, setDraft] = useState<Row | null>(null);
  const [opened, setOpened] = useState<Row | null>(null);
  // A second click on Save while the first is out would send the same version again, and its 412
  // would hide the first one's success. A ref too: the click can come before the button re-renders.
  const [saving, setSaving] = useState(false);
  const savingNow = useRef(false);
  // A second Delete (and confirm) while the first is out would send another, and its refusal (the row
  // is gone) would follow the first one's success.
  const deleting = useRunOncePer<number>();
  // The focus follows the row's edit, so a keyboard or screen reader user stays where they work: Edit
  // puts it in the row's first field, and closing the edit (Save, Cancel) gives it back to the row's
  // Edit; a deleted row's goes to the Edit of the row after it (or the one before it).
  const firstField = useRef<HTMLInputElement>(null);
  const editButtons = useRef(new Map<number, HTMLButtonElement>());
  const [focusEditOf, setFocusEditOf] = useState<number | null>(null);
  useEffect(() => {
    if (editing !== null) firstField.current?.focus();
  }, [editing]);
  useEffect(() => {
    if (focusEditOf === null) return;
    editButtons.current.get(focusEditOf)?.focus();
    setFocusEditOf(null);
  }, [focusEditOf]);
  const closeEdit = (rowId: number) => {
    setEditing(null);
    setFocusEditOf(rowId);
  };
  const removeRow = async (row: Row) => {
    if (!(await onDelete(row))) return;
    // The Edit of the row after it (or before it, for the last), which stays on screen whatever the
    // refetch brings; with no row left, the screen's main region.
    const others = rows.filter((r) => r.id !== row.id);
    const taking =
      others[
        Math.min(
          rows.findIndex((r) => r.id === row.id),
          others.length - 1,
        )
      ];
    if (taking) setFocusEditOf(taking.id);
    else focusMainRegion();
  };
  if (loadFailure) return <LoadError what={what} error={loadFailure.error} onRetry={loadFailure.retry} />;
  if (!rows.length) return <p className="empty">{isPending ? 'Loading...' : empty}</p>;

  const save = async (openedRow: Row, draftRow: Row) => {
    if (savingNow.current) return;
    savingNow.current = true;
    setSaving(true);
    try {
      const saved = await onSave(openedRow, draftRow);
      if (saved === true) closeEdit(openedRow.id);
      else if (saved) {
        setOpened(saved.opened);
        setDraft(saved.draft);
      }
    } finally {
      savingNow.current = false;
      setSaving(false);
    }
  };

  const firstEditable = columns.find((column) => column.edit)?.key;
  const input = (col: Column<Row>, editedRow: Row) => {
    const value = editedRow[col.key] as unknown;
    const ref = col.key === firstEditable ? firstField : undefined;
    const set = (v: unknown) => setDraft({ ...editedRow, [col.key]: v });
    if (col.edit === 'checkbox')
      return <input ref={ref} type="checkbox" aria-label={col.label} checked={Boolean(value)} onChange={(e) => set(e.target.checked)} />;
    return (
      <input
        ref={ref}
        aria-label={col.label}
        type={col.edit}
        value={value === null || value === undefined ? '' : String(value)}
        onChange={(e) => set(col.edit === 'number' ? (e.target.value === '' ? null : Number(e.target.value)) : e.target.value)}
      />
    );
  };

  const actions = (row: Row) => {
    const described = `${rowLabel}-${row.id}`;
    return (
      <div className="row-actions">
        <span id={described} hidden>
          ID {row.id}
        </span>
        {editing === row.id && draft && opened ? (
          <>
            <BusyButton className="primary" busy={saving} aria-describedby={described} onClick={() => void save(opened, draft)}>
              Save
            </BusyButton>
            <button type="button" disabled={saving} aria-describedby={described} onClick={() => closeEdit(row.id)}>
              Cancel
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              ref={(button) => {
                if (button) editButtons.current.set(row.id, button);
                else editButtons.current.delete(row.id);
              }}
              // While a save is out, no other row opens: its answer would close, or refill, the editor.
              disabled={saving}
              aria-describedby={described}
              onClick={() => {
                setEditing(row.id);
                setOpened(row);
                setDraft(row);
              }}
            >
              Edit
            </button>
            <BusyButton
              className="danger"
              busy={deleting.busy(row.id)}
              notReady={saving}
              aria-describedby={described}
              onClick={() => window.confirm(deleteQuestion) && deleting.run(row.id, () => removeRow(row))}
            >
              Delete
            </BusyButton>
          </>
        )}
      </div>
    );
  };

  return (
    <DataTable<Row>
      rows={rows}
      columns={[
        ...columns.map(
          (column): DataColumn<Row> => ({
            label: column.label,
            className: column.edit === 'date' ? 'nowrap' : undefined,
            cell: (row) =>
              editing === row.id && draft && column.edit ? input(column, draft) : (column.show?.(row) ?? String(row[column.key] ?? '')),
          }),
        ),
        { label: 'Actions', cell: actions },
      ]}
    />
  );
}
