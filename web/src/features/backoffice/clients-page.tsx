import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { LoadError } from '../../components/load-error';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { dateTime } from '../../lib/format';
import { useDeleteMessage } from './api/delete-message';
import { useClientsPage } from './api/get-clients';
import { useMessagesPage } from './api/get-messages';

export function ClientsTable({ clients }: { clients: Schemas['ClientRow'][] }) {
  if (!clients.length) return <p className="empty">No clients found.</p>;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th>Client ID</th>
            <th>Full Name</th>
            <th>Phone</th>
            <th>Account</th>
            <th>Created At</th>
          </tr>
        </thead>
        <tbody>
          {clients.map((c) => (
            <tr key={c.id}>
              <td>{c.id}</td>
              <td>
                {c.firstName} {c.lastName}
              </td>
              <td>{c.phoneNumber}</td>
              <td>{c.account}</td>
              <td>{dateTime(c.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function ClientsPage() {
  useDocumentTitle('All Clients');
  const [clientPage, setClientPage] = useState(1);
  const [messagePage, setMessagePage] = useState(1);
  const [notice, show] = useNotice();
  const clients = useClientsPage(clientPage);
  const messages = useMessagesPage(messagePage);
  const deleteMessage = useDeleteMessage();

  const remove = (id: number) =>
    deleteMessage.mutate(id, {
      onSuccess: () => show('Message deleted successfully.'),
      onError: (error) => show('Failed to delete message.', 'error', failureReason(error)),
    });

  return (
    <section>
      <h1>All Clients</h1>
      {clients.isPending ? (
        <p className="muted">Loading...</p>
      ) : clients.isError ? (
        <LoadError what="the clients" error={clients.error} onRetry={() => void clients.refetch()} />
      ) : (
        <ClientsTable clients={clients.data.clients} />
      )}
      <Paging page={clientPage} totalPages={clients.data?.totalPages ?? 1} onPage={setClientPage} label="Client pages" />
      <h2>Client Messages</h2>
      <Notice notice={notice} />
      {messages.isPending ? (
        <p className="muted">Loading...</p>
      ) : messages.isError ? (
        <LoadError what="the messages" error={messages.error} onRetry={() => void messages.refetch()} />
      ) : !messages.data.messages.length ? (
        <p className="empty">No messages found.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>ID</th>
                <th>Username</th>
                <th>Account</th>
                <th>Message</th>
                <th>Created At</th>
                <th>Action</th>
              </tr>
            </thead>
            <tbody>
              {messages.data.messages.map((m) => (
                <tr key={m.id}>
                  <td>{m.id}</td>
                  <td>{m.userName}</td>
                  <td>{m.account}</td>
                  <td>{m.message}</td>
                  <td>{dateTime(m.createdAt)}</td>
                  <td>
                    <button type="button" className="danger" onClick={() => remove(m.id)}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Paging page={messagePage} totalPages={messages.data?.totalPages ?? 1} onPage={setMessagePage} label="Message pages" />
    </section>
  );
}
