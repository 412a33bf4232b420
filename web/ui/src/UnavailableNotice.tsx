import { useIsFetching } from '@tanstack/react-query';
import { isBrieflyUnavailable } from './unavailableRetry.js';

export const UNAVAILABLE_NOTICE = "Our service is briefly unavailable; we'll retry.";

/**
 * Said while a read waits to be tried again after the API answered briefly unavailable. The live region is always
 * there, so a screen reader announces the sentence when it appears.
 */
export function UnavailableNotice() {
  const retrying = useIsFetching({ predicate: (query) => isBrieflyUnavailable(query.state.fetchFailureReason) }) > 0;
  return (
    <div role="status" className={retrying ? 'alert alert-info' : undefined}>
      {retrying ? UNAVAILABLE_NOTICE : null}
    </div>
  );
}
