// Toasts and messages disappear after 3 seconds (spec 4 and 9).
import { useCallback, useEffect, useRef, useState } from 'react';
import { NOTICE_MS } from '../lib/constants';

export type NoticeKind = 'success' | 'error';
export interface NoticeState {
  text: string;
  kind: NoticeKind;
  /** The server's reason, shown under the spec's text (see failureReason). */
  reason?: string;
}

export function useNotice(): [NoticeState | null, (text: string, kind?: NoticeKind, reason?: string) => void] {
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const show = useCallback((text: string, kind: NoticeKind = 'success', reason?: string) => {
    clearTimeout(timer.current);
    setNotice({ text, kind, reason: reason && reason !== text ? reason : undefined });
    timer.current = setTimeout(() => setNotice(null), NOTICE_MS);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [notice, show];
}

function NoticeText({ notice }: { notice: NoticeState }) {
  return (
    <>
      {notice.text}
      {notice.reason && <div className="notice-reason">{notice.reason}</div>}
    </>
  );
}

/**
 * A success goes into a status region that is always there, empty between notices: a change within a
 * polite live region already on the page is announced, where one inserted with its text is not by every
 * screen reader. An error is an alert, which screen readers announce as it is inserted.
 */
export function Notice({ notice }: { notice: NoticeState | null }) {
  return (
    <>
      <div role="status" className={notice?.kind === 'success' ? 'notice notice-success' : 'notice-region'}>
        {notice?.kind === 'success' && <NoticeText notice={notice} />}
      </div>
      {notice?.kind === 'error' && (
        <div role="alert" className="notice notice-error">
          <NoticeText notice={notice} />
        </div>
      )}
    </>
  );
}
