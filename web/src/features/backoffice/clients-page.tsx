import type { Schemas } from '../../api/types';
import { BusyButton } from '../../components/busy-button';
import { DataTable } from '../../components/data-table';
import { LoadError } from '../../components/load-error';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { QueryView } from '../../components/query-view';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { dateTime } from '../../lib/format';
import { usePageInAddress } from '../../lib/use-address-state';
import { useRunOncePer } from '../../lib/use-submit-once';
import { useDeleteMessage } from './api/delete-message';
import { useClientsPage } from './api/get-clients';
import { useMessagesPage } from './api/get-messages';
import { needsStepUp, StepUpNotice } from './step-up';

export function ClientsTable({ clients }: { clients: Schemas['ClientRow'][] }) {
  if (!clients.length) return <p className="empty">No clients found.</p>;
  return (
    <DataTable
      rows={clients}
      columns={[
        { label: 'Client ID', cell: (c) => c.id },
        { label: 'Full Name', cell: (c) => `${c.firstName} ${c.lastName}` },
        { label: 'Phone', cell: (c) => c.phoneNumber },
        { label: 'Account', cell: (c) => c.account },
        { label: 'Created At', cell: (c) => dateTime(c.createdAt) },
      ]}
    />
  );
}

export default function ClientsPage() {
  useDocumentTitle('All Clients');
  const [clientPage, setClientPage] = usePageInAddress();
  const [messagePage, setMessagePage] = usePageInAddress('messagesPage');
  const [notice, show] = useNotice();
  const clients = useClientsPage(clientPage);
  const messages = useMessagesPage(messagePage);
  const deleteMessage = useDeleteMessage();

  // Each delete says how it went, even when another started before it finished; a message's is sent
  // once (a second click's would find it gone, and say the delete failed).
  const deleting = useRunOncePer<number>();
  const remove = (id: number) =>
    deleting.run(id, () =>
      deleteMessage.mutateAsync(id).then(
        () => show('Message deleted successfully.'),
        (error) => show('Failed to delete message.', 'error', failureReason(error)),
      ),
    );

  return (
    <section>
      <h1>All Clients</h1>
      {clients.isPending ? (
        <p className="muted">Loading...</p>
      ) : clients.isError && needsStepUp(clients.error) ? (
        <StepUpNotice what="The clients' details" onConfirmed={() => void clients.refetch()} />
      ) : clients.isError ? (
        <LoadError what="the clients" error={clients.error} onRetry={() => void clients.refetch()} />
      ) : (
        <ClientsTable clients={clients.data.clients} />
      )}
      <Paging page={clientPage} totalPages={clients.data?.totalPages} onPage={setClientPage} label="Client pages" />
      <h2>Client Messages</h2>
      <Notice notice={notice} />
      <QueryView query={messages} what="the messages" empty={{ text: 'No messages found.', when: (data) => !data.messages.length }}>
        {(data) => (
          <DataTable
            rows={data.messages}
            columns={[
              { label: 'ID', cell: (m) => m.id },
              { label: 'Username', cell: (m) => m.userName },
              { label: 'Account', cell: (m) => m.account },
              { label: 'Message', cell: (m) => m.message },
              { label: 'Created At', cell: (m) => dateTime(m.createdAt) },
              {
                label: 'Action',
                // Every row's button is Delete: described by its message, for a screen reader to tell them apart.
                cell: (m) => (
                  <>
                    <span id={`message-${m.id}`} hidden>
                      Message {m.id} from {m.userName}
                    </span>
                    <BusyButton
                      className="danger"
                      onClick={() => remove(m.id)}
                      busy={deleting.busy(m.id)}
                      aria-describedby={`message-${m.id}`}
                    >
                      Delete
                    </BusyButton>
                  </>
                ),
              },
            ]}
          />
        )}
      </QueryView>
      <Paging page={messagePage} totalPages={messages.data?.totalPages} onPage={setMessagePage} label="Message pages" />
    </section>
  );
}
