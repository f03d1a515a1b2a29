import { Link } from 'react-router-dom';
import { dateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useNotices } from '../api/get-notices';
import { useMarkNoticesRead } from '../api/mark-notices-read';

/**
 * The bell in the top bar (beyond the spec): how many notices are unread, and the newest ones when
 * opened. Closing it reads them, so the new ones stay marked while the client looks. Only a
 * signed-in client has one.
 */
export function NoticeBell() {
  const { loggedIn } = useSession();
  const { data } = useNotices();
  const markRead = useMarkNoticesRead();
  if (!loggedIn || !data) return null;
  const label = data.unread === 1 ? '1 unread notice' : `${data.unread} unread notices`;
  return (
    <details
      className="menu notice-bell"
      onToggle={(event) => {
        // Only what it showed (the newest unread first): a notice written since its last fetch, or an
        // unread one past the list, stays unread.
        const unreadShown = data.notices.filter((n) => !n.read).map((n) => n.id);
        if (!event.currentTarget.open && unreadShown.length)
          markRead.mutate({ upTo: Math.max(...unreadShown), from: Math.min(...unreadShown) });
      }}
    >
      <summary aria-label={`Notices: ${label}`}>
        <svg className="icon" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        {data.unread > 0 && (
          <span className="badge" aria-hidden="true">
            {data.unread}
          </span>
        )}
      </summary>
      {/* Following a notice closes the bell, which reads them. */}
      <ul onClick={(event) => event.currentTarget.closest('details')?.removeAttribute('open')}>
        {data.notices.length === 0 && <li className="muted">No notices yet.</li>}
        {data.notices.map((notice) => (
          <li key={notice.id}>
            <Link to={paths.book(notice.bookCopyId, notice.bookName)} className={notice.read ? undefined : 'notice-unread'}>
              {notice.message}
            </Link>
            <span className="muted">{dateTime(notice.createdAt)}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
