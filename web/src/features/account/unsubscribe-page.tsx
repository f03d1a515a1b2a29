// /unsubscribe?client=…&list=…&token=… (beyond the spec): where a status or back-in-stock e-mail's
// own link leads. It asks first, so a mail scanner following the link turns nothing off; mail
// programs use the e-mail's one-click header instead, which posts to the API directly.
import { Link, useSearchParams } from 'react-router-dom';
import { BusyButton } from '../../components/busy-button';
import { Notice, useNotice } from '../../components/notice';
import { Outcome } from '../../components/outcome';
import { useDocumentTitle } from '../../lib/document-title';
import { failureReason } from '../../lib/failure-reason';
import { paths } from '../../lib/paths';
import { type UnsubscribeLink, useUnsubscribe } from './api/unsubscribe';

const LISTS = { status: 'order status e-mails', back_in_stock: 'back-in-stock e-mails' } as const;

function linkOf(params: URLSearchParams): UnsubscribeLink | null {
  const client = Number(params.get('client'));
  const list = params.get('list');
  const token = params.get('token');
  if (!Number.isInteger(client) || client < 1 || !token || (list !== 'status' && list !== 'back_in_stock')) return null;
  return { client, list, token };
}

export default function UnsubscribePage() {
  useDocumentTitle('Unsubscribe');
  const [params] = useSearchParams();
  const link = linkOf(params);
  const unsubscribe = useUnsubscribe();
  const [notice, show] = useNotice();

  return (
    <div className="narrow">
      <h1>Unsubscribe</h1>
      <Notice notice={notice} />
      {!link ? (
        <p>
          This unsubscribe link is not complete. Change your e-mail choices on your <Link to={paths.account}>account page</Link>.
        </p>
      ) : unsubscribe.isSuccess ? (
        <Outcome>
          {unsubscribe.data} You can turn them on again on your <Link to={paths.account}>account page</Link>.
        </Outcome>
      ) : (
        <>
          <p>Stop getting {LISTS[link.list]}? Order confirmations still come, and so does a cancellation.</p>
          <BusyButton
            className="primary"
            busy={unsubscribe.isPending}
            onClick={() =>
              unsubscribe.mutate(link, { onError: (error) => show('You could not be unsubscribed.', 'error', failureReason(error)) })
            }
          >
            Unsubscribe
          </BusyButton>
        </>
      )}
    </div>
  );
}
