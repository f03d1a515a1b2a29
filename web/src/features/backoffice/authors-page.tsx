import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { SubmitButton } from '../../components/busy-button';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { useDocumentTitle } from '../../lib/document-title';
import { useSubmitOnce } from '../../lib/use-submit-once';
import { useAddAuthor } from './api/add-author';
import { useDeleteAuthor } from './api/delete-author';
import { authorsTable } from './api/get-authors';
import { useRenameAuthor } from './api/rename-author';
import { EditTable } from './edit-table';
import { SearchBar } from './search-bar';
import { useAdminList } from './use-admin-list';
import { saveOnTopOfChanges } from './versioned-save';

export default function AuthorsPage() {
  useDocumentTitle('Authors');
  const [notice, show] = useNotice();
  const [name, setName] = useState('');
  const addAuthor = useAddAuthor();
  const renameAuthor = useRenameAuthor();
  const deleteAuthor = useDeleteAuthor();
  const list = useAdminList<Schemas['Author']>({
    ...authorsTable,
    notify: show,
    notFound: 'No author found.',
  });

  const adding = useSubmitOnce();
  const add = async () => {
    if (!name.trim()) return; // ignored when empty after trimming
    await list.write(() => addAuthor.mutateAsync(name.trim()).then(() => setName('')), {
      success: 'Author added successfully.',
      failure: 'Failed to add author.',
    });
  };

  return (
    <section>
      <h1>Authors</h1>
      <Notice notice={notice} />
      <form className="inline-form" onSubmit={adding.handle(add)}>
        <input aria-label="New author name" placeholder="Enter new author name" value={name} onChange={(e) => setName(e.target.value)} />
        <SubmitButton busy={adding.busy}>Add Author</SubmitButton>
      </form>
      <SearchBar placeholder="Search by ID or name" onSearch={list.searchAndTell} onReset={list.reset} searched={list.searchText} />
      <EditTable<Schemas['Author']>
        list={list}
        what="the authors"
        empty="No author found."
        columns={[
          { key: 'id', label: 'ID' },
          { key: 'fullName', label: 'Full Name', edit: 'text' },
        ]}
        deleteQuestion="Are you sure you want to delete this author?"
        onSave={async (row, draft) => {
          if (!draft.fullName.trim()) return false; // ignored when empty after trimming
          return saveOnTopOfChanges(
            (call) => list.write(call, { success: 'Author updated successfully.', failure: 'Failed to update author.' }),
            () => renameAuthor.mutateAsync({ id: row.id, name: draft.fullName.trim(), version: draft.version }),
            { opened: row, draft, editable: ['fullName'] },
          );
        }}
        onDelete={(row) =>
          list.write(() => deleteAuthor.mutateAsync({ id: row.id, version: row.version }), {
            success: 'Author deleted successfully.',
            failure: 'Failed to delete author.',
          })
        }
      />
      {!list.searching && <Paging page={list.page} totalPages={list.totalPages} onPage={list.setPage} />}
    </section>
  );
}
