import type { Schemas } from '../../api/types';
import { BusyButton } from '../../components/busy-button';
import { DataTable } from '../../components/data-table';
import { Notice, useNotice } from '../../components/notice';
import { Paging } from '../../components/paging';
import { QueryView } from '../../components/query-view';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { usePageInAddress } from '../../lib/use-address-state';
import { useDeadLetters } from './api/get-dead-letters';
import { useRetryDeadLetter } from './api/retry-dead-letter';

type DeadLetter = Schemas['DeadLetter'];

const KINDS: Record<DeadLetter['kind'], string> = {
  order_placed: 'Order confirmation',
  order_status: 'Order status',
  back_in_stock: 'Back in stock',
  contact_received: 'Contact message received',
  password_changed: 'Password changed',
  email_changed: 'Sign-in e-mail changed',
};

/** What a letter was about: its order, else the client or employee it was for. */
function about(letter: DeadLetter) {
  if (letter.orderId) return `Order #${letter.orderId}`;
  if (letter.clientId) return `Client #${letter.clientId}`;
  if (letter.employeeId) return `Employee #${letter.employeeId}`;
  return '';
}

export default function MailPage() {
  useDocumentTitle('E-mail');
  const [page, setPage] = usePageInAddress();
  const letters = useDeadLetters(page);
  const retry = useRetryDeadLetter();
  const [notice, show] = useNotice();

  return (
    <section>
      <h1>E-mail</h1>
      <Notice notice={notice} />
      <p className="muted">E-mails the mail server did not take after every try. Send one again once the server is back.</p>
      <QueryView
        query={letters}
        what="the undelivered e-mails"
        empty={{ text: 'Every e-mail was delivered.', when: (data) => !data.letters.length }}
      >
        {(data) => (
          <>
            <DataTable<DeadLetter>
              rows={data.letters}
              columns={[
                { label: 'E-mail', cell: (l) => KINDS[l.kind] },
                { label: 'About', cell: about },
                { label: 'Written', cell: (l) => new Date(l.createdAt).toLocaleString('en-GB', { timeZone: 'UTC' }) },
                { label: 'Tries', cell: (l) => l.attempts },
                { label: 'Last answer', cell: (l) => l.lastError ?? '' },
                {
                  label: 'Send again',
                  cell: (l) => (
                    <BusyButton
                      busy={retry.isPending}
                      aria-label={`Send e-mail ${l.id} again`}
                      onClick={() =>
                        retry.mutate(l.id, {
                          onSuccess: () => show('The e-mail is queued to be sent again.'),
                          onError: (error) => show('The e-mail could not be queued.', 'error', failureReason(error)),
                        })
                      }
                    >
                      Send again
                    </BusyButton>
                  ),
                },
              ]}
            />
            <Paging page={page} totalPages={data.totalPages} onPage={setPage} />
          </>
        )}
      </QueryView>
    </section>
  );
}
