import { isBlank } from '@bookshop/rules';
import { useForm } from 'react-hook-form';
import type { Schemas } from '../../api/types';
import { SubmitButton } from '../../components/busy-button';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { useDescribedFields } from '../../lib/described-fields';
import { useDocumentTitle } from '../../lib/document-title';
import { money } from '../../lib/format';
import { formRuleResolver } from '../../lib/rule-resolver';
import { useSubmitOnce } from '../../lib/use-submit-once';
import { useAddCopy } from './api/add-copy';
import { useDeleteCopy } from './api/delete-copy';
import { copiesTable } from './api/get-copies';
import { useUpdateCopy } from './api/update-copy';
import { EditTable } from './edit-table';
import { SearchBar } from './search-bar';
import { useAdminList } from './use-admin-list';
import { saveOnTopOfChanges } from './versioned-save';

type Copy = Schemas['BookCopyAdmin'];
const EDITABLE = ['bookId', 'quantity', 'price', 'isAvailable'] as const;

const EMPTY_FORM = { bookId: '', quantity: '', price: '', isAvailable: true };
const REQUIRED = 'All fields are required.';

/** A number field left blank: sent as Number(''), it would be 0, a copy at $0.00 or out of stock that nobody typed. */
const blank = (...values: unknown[]) => values.some((value) => isBlank(value == null ? null : String(value)));
const NEW_COPY_FIELDS = [
  ['bookId', 'Book ID', 'numeric'],
  ['quantity', 'Quantity', 'numeric'],
  ['price', 'Price', 'decimal'],
] as const;

/** The new copy's numbers, each given: the blank ones are the fields marked. */
const newCopyResolver = formRuleResolver<typeof EMPTY_FORM>((form) => {
  const missing = NEW_COPY_FIELDS.map(([key]) => key).filter((key) => blank(form[key]));
  return missing.length ? { problem: REQUIRED, fields: missing } : { problem: null };
});

export default function CopiesPage() {
  useDocumentTitle('Book Copies');
  const [notice, show] = useNotice();
  const form = useForm({ defaultValues: EMPTY_FORM, resolver: newCopyResolver });
  const { register, handleSubmit, reset } = form;
  const { field, errorTexts } = useDescribedFields(form);
  const addCopy = useAddCopy();
  const updateCopy = useUpdateCopy();
  const deleteCopy = useDeleteCopy();
  const list = useAdminList<Schemas['BookCopyAdmin']>({
    ...copiesTable,
    notify: show,
    notFound: 'No book copy found.',
  });

  const adding = useSubmitOnce();
  const add = handleSubmit(
    async (form) => {
      const copy = {
        bookId: Number(form.bookId),
        quantity: Number(form.quantity),
        price: Number(form.price),
        isAvailable: form.isAvailable,
      };
      await list.write(() => addCopy.mutateAsync(copy).then(() => reset()), {
        success: 'Book copy added successfully.',
        failure: 'Failed to add book copy.',
      });
    },
    (errors) => show(errors.root?.message ?? REQUIRED, 'error'),
  );

  return (
    <section>
      <h1>Book Copies</h1>
      <Notice notice={notice} />
      <form className="inline-form" onSubmit={adding.handle(add)}>
        {NEW_COPY_FIELDS.map(([key, label, inputMode]) => (
          <input key={key} aria-label={label} placeholder={label} inputMode={inputMode} {...field(key)} />
        ))}
        <label className="check">
          <input type="checkbox" {...register('isAvailable')} /> Available
        </label>
        {errorTexts}
        <SubmitButton busy={adding.busy}>Add Book Copy</SubmitButton>
      </form>
      <SearchBar
        placeholder="Search by ID"
        onSearch={async (text) => {
          if (!/^\d+$/.test(text.trim())) return show('All fields are requered.', 'error');
          await list.searchAndTell(text);
        }}
        onReset={list.reset}
        searched={list.searchText}
      />
      <EditTable<Copy>
        list={list}
        what="the book copies"
        empty="No book copy found."
        columns={[
          { key: 'id', label: 'ID' },
          { key: 'bookId', label: 'Book ID', edit: 'number' },
          { key: 'quantity', label: 'Quantity', edit: 'number' },
          { key: 'price', label: 'Price', edit: 'number', show: (c) => money(c.price) },
          { key: 'isAvailable', label: 'Available', edit: 'checkbox', show: (c) => (c.isAvailable ? 'Yes' : 'No') },
        ]}
        deleteQuestion="Are you sure you want to delete this book copy?"
        onSave={async (opened, d) => {
          if (blank(d.bookId, d.quantity, d.price)) {
            show(REQUIRED, 'error');
            return false;
          }
          const copy = {
            id: d.id,
            bookId: Number(d.bookId),
            quantity: Number(d.quantity),
            price: Number(d.price),
            isAvailable: d.isAvailable,
            version: d.version,
          };
          return saveOnTopOfChanges(
            (call) => list.write(call, { success: 'Book copy updated successfully.', failure: 'Failed to update book copy.' }),
            () => updateCopy.mutateAsync(copy),
            { opened, draft: { ...d, ...copy }, editable: EDITABLE },
          );
        }}
        onDelete={(row) =>
          list.write(() => deleteCopy.mutateAsync({ id: row.id, version: row.version }), {
            success: 'Book copy deleted successfully.',
            failure: 'Failed to delete book copy.',
          })
        }
      />
      {!list.searching && <Paging page={list.page} totalPages={list.totalPages} onPage={list.setPage} />}
    </section>
  );
}
