import { useState } from 'react';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { useDocumentTitle } from '../../lib/document-title';
import { useSubmitOnce } from '../../lib/use-submit-once';
import { employeeApi } from './api';
import { EditTable } from './edit-table';
import { SearchBar } from './search-bar';
import { useAdminList } from './use-admin-list';

type Author = { id: number; fullName: string };

export default function AuthorsPage() {
  useDocumentTitle('Authors');
  const [notice, show] = useNotice();
  const [name, setName] = useState('');
  const list = useAdminList<Author>({
    key: 'authors',
    page: async (p, s) => {
      const r = await employeeApi.authors(p, s);
      return { rows: r.authors, totalPages: r.totalPages };
    },
    byId: employeeApi.authorById,
    byName: employeeApi.authorsByName,
    notify: show,
    notFound: 'No author found.',
  });

  const adding = useSubmitOnce();
  const add = async () => {
    if (!name.trim()) return; // ignored when empty after trimming
    await list.write(() => employeeApi.addAuthor(name.trim()).then(() => setName('')), {
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
        <button type="submit" className="primary" disabled={adding.busy} aria-busy={adding.busy}>
          Add Author
        </button>
      </form>
      <SearchBar placeholder="Search by ID or name" onSearch={list.searchAndTell} onReset={list.reset} />
      <EditTable<Author>
        rows={list.rows}
        empty={list.isPending ? 'Loading...' : 'No author found.'}
        columns={[
          { key: 'id', label: 'ID' },
          { key: 'fullName', label: 'Full Name', edit: 'text' },
        ]}
        deleteQuestion="Are you sure you want to delete this author?"
        onSave={async (row, draft) => {
          if (!draft.fullName.trim()) return false; // ignored when empty after trimming
          return list.write(() => employeeApi.renameAuthor(row.id, draft.fullName.trim()), {
            success: 'Author updated successfully.',
            failure: 'Failed to update author.',
          });
        }}
        onDelete={(row) =>
          list.write(() => employeeApi.deleteAuthor(row.id), {
            success: 'Author deleted successfully.',
            failure: 'Failed to delete author.',
          })
        }
      />
      {!list.searching && <Paging page={list.page} totalPages={list.totalPages} onPage={list.setPage} />}
    </section>
  );
}
