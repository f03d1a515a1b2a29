import { useId, useRef, useState } from 'react';
import type { Schemas } from '../../api/types';
import { SubmitButton } from '../../components/busy-button';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { useDocumentTitle } from '../../lib/document-title';
import { useSubmitOnce } from '../../lib/use-submit-once';
import { useAddBook } from './api/add-book';
import { useDeleteBook } from './api/delete-book';
import { booksTable } from './api/get-books';
import { useUpdateBook } from './api/update-book';
import { EditTable } from './edit-table';
import { SearchBar } from './search-bar';
import { useAdminList } from './use-admin-list';
import { saveOnTopOfChanges } from './versioned-save';

const EDITABLE = ['name', 'pagesNumber', 'authorId', 'typeId', 'publishedAt'] as const;

export default function BooksPage() {
  useDocumentTitle('Books');
  const [notice, show] = useNotice();
  const [isbn, setIsbn] = useState('');
  // Left blank, the field is marked and has the focus, described by its own reason (below), until typed in.
  const [isbnMissing, setIsbnMissing] = useState(false);
  const isbnField = useRef<HTMLInputElement>(null);
  const missingId = useId();
  const addBook = useAddBook();
  const updateBook = useUpdateBook();
  const deleteBook = useDeleteBook();
  const list = useAdminList<Schemas['Book']>({
    ...booksTable,
    notify: show,
    notFound: 'No book found.',
  });

  const adding = useSubmitOnce();
  const add = async () => {
    if (!isbn.trim()) {
      setIsbnMissing(true);
      isbnField.current?.focus();
      return show('All fields are required.', 'error');
    }
    await list.write(() => addBook.mutateAsync(isbn.trim()).then(() => setIsbn('')), {
      success: 'Book added successfully.',
      failure: 'Failed to add book.',
    });
  };

  return (
    <section>
      <h1>Books</h1>
      <Notice notice={notice} />
      <form className="inline-form" onSubmit={adding.handle(add)}>
        <input
          ref={isbnField}
          aria-label="ISBN"
          placeholder="ISBN"
          value={isbn}
          aria-invalid={isbnMissing}
          aria-describedby={isbnMissing ? missingId : undefined}
          onChange={(e) => {
            setIsbn(e.target.value);
            setIsbnMissing(false);
          }}
        />
        {/* Hidden, and still read: the field's own reason, which outlives the notice's 3 s. */}
        {isbnMissing && (
          <span id={missingId} hidden>
            All fields are required.
          </span>
        )}
        <SubmitButton busy={adding.busy}>Add Book</SubmitButton>
      </form>
      <SearchBar placeholder="Search by ID or name" onSearch={list.searchAndTell} onReset={list.reset} searched={list.searchText} />
      <EditTable<Schemas['Book']>
        list={list}
        what="the books"
        empty="No book found."
        columns={[
          { key: 'id', label: 'ID' },
          { key: 'name', label: 'Name', edit: 'text' },
          { key: 'pagesNumber', label: 'Pages', edit: 'number' },
          { key: 'authorId', label: 'Author ID', edit: 'number' },
          { key: 'typeId', label: 'Type ID', edit: 'number' },
          { key: 'publishedAt', label: 'Published', edit: 'date', show: (b) => b.publishedAt ?? 'N/A' },
        ]}
        deleteQuestion="Are you sure you want to delete this book?"
        onSave={(opened, d) =>
          saveOnTopOfChanges(
            (call) => list.write(call, { success: 'Book updated successfully.', failure: 'Failed to update book.' }),
            () =>
              updateBook.mutateAsync({
                id: d.id,
                name: d.name,
                pagesNumber: d.pagesNumber,
                authorId: d.authorId,
                typeId: d.typeId,
                publishedAt: d.publishedAt || null,
                version: d.version,
              }),
            { opened, draft: d, editable: EDITABLE },
          )
        }
        onDelete={(row) =>
          list.write(() => deleteBook.mutateAsync({ id: row.id, version: row.version }), {
            success: 'Book deleted successfully.',
            failure: 'Failed to delete book.',
          })
        }
      />
      {!list.searching && <Paging page={list.page} totalPages={list.totalPages} onPage={list.setPage} />}
    </section>
  );
}
