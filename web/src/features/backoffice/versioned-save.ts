// A save of a versioned row (an author, a book, a copy) from the inline-edit table. The write says
// which version the row was opened with; when the row changed since (412, decision record 12), the
// table stays open on the row as it is now with the person's edits on top, so Save again keeps their
// changes and no one else's is lost.
import { rowNowOf } from './api/backoffice-mutation';

export type SaveOutcome<Row> = boolean | { opened: Row; draft: Row };

export async function saveOnTopOfChanges<Row extends object>(
  /** The screen's write (useAdminList's), which tells how it went and answers whether it saved. */
  write: (call: () => Promise<unknown>) => Promise<boolean>,
  call: () => Promise<unknown>,
  { opened, draft, editable }: { opened: Row; draft: Row; editable: readonly (keyof Row)[] },
): Promise<SaveOutcome<Row>> {
  let current: Row | undefined;
  const saved = await write(() =>
    call().catch((error: unknown) => {
      current = rowNowOf<Row>(error);
      throw error;
    }),
  );
  if (!current) return saved;
  const rebased: Row = { ...current };
  for (const key of editable) if (draft[key] !== opened[key]) rebased[key] = draft[key];
  return { opened: current, draft: rebased };
}
