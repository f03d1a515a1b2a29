// Toasts and messages disappear after 3 seconds (spec 4 and 9).
import { useCallback, useEffect, useRef, useState } from 'react';
import { NOTICE_MS } from '../lib/constants';

export type NoticeKind = 'success' | 'error';
export interface NoticeState {
  text: string;
  kind: NoticeKind;
}

export function useNotice(): [NoticeState | null, (text: string, kind?: NoticeKind) => void] {
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const show = useCallback((text: string, kind: NoticeKind = 'success') => {
    clearTimeout(timer.current);
    setNotice({ text, kind });
    timer.current = setTimeout(() => setNotice(null), NOTICE_MS);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [notice, show];
}

export function Notice({ notice }: { notice: NoticeState | null }) {
  if (!notice) return null;
  return (
    <div role={notice.kind === 'error' ? 'alert' : 'status'} className={`notice notice-${notice.kind}`}>
      {notice.text}
    </div>
  );
}
