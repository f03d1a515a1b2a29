import { useState } from 'react';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
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
  });

  const adding = useSubmitOnce();
  const add = async () => {
    if (!name.trim()) return; // ignored when empty after trimming
    try {
      await employeeApi.addAuthor(name.trim());
      setName('');
      show('Author added successfully.');
      await list.reload();
    } catch (error) {
      show('Failed to add author.', 'error', failureReason(error));
    }
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
      <SearchBar
        placeholder="Search by ID or name"
        onSearch={async (text) => {
          try {
            if (!(await list.search(text))) show('No author found.', 'error');
          } catch (error) {
            // A failed search is not an empty one: say it failed, and why.
            show('The search failed.', 'error', failureReason(error));
          }
        }}
        onReset={list.reset}
      />
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
          try {
            await employeeApi.renameAuthor(row.id, draft.fullName.trim());
            show('Author updated successfully.');
            await list.reload();
            return true;
          } catch (error) {
            show('Failed to update author.', 'error', failureReason(error));
            return false;
          }
        }}
        onDelete={async (row) => {
          try {
            await employeeApi.deleteAuthor(row.id);
            show('Author deleted successfully.');
            await list.reload();
          } catch (error) {
            show('Failed to delete author.', 'error', failureReason(error));
          }
        }}
      />
      {!list.searching && <Paging page={list.page} totalPages={list.totalPages} onPage={list.setPage} />}
    </section>
  );
}
