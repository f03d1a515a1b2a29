// A list that could not be loaded says so and offers a retry: "nothing found" is only ever said of
// an answer that was empty.
import { failureReason } from '../lib/failure-reason';

export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  const reason = failureReason(error);
  return (
    <div role="alert" className="load-error">
      <p>Could not load {what}.</p>
      {reason && <p className="muted">{reason}</p>}
      <button type="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
