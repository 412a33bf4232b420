import { useEffect, useState } from 'react';
import { ClaimPresence, type ClaimViewer } from '@claims/contracts';
import { api } from '../../shared/api.js';

/**
 * Who else has this claim open, from the server's presence stream (server-sent events). The browser's
 * EventSource reconnects by itself after a dropped connection; closing the page closes the stream,
 * which is leaving the claim.
 */
export function useClaimPresence(claimId: string): ClaimViewer[] {
  const [viewers, setViewers] = useState<ClaimViewer[]>([]);
  useEffect(() => {
    const source = new EventSource(api.presenceUrl(claimId));
    source.addEventListener('presence', (event) => {
      const parsed = ClaimPresence.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (parsed.success && parsed.data.claimId === claimId) setViewers(parsed.data.viewers);
    });
    return () => {
      source.close();
      setViewers([]);
    };
  }, [claimId]);
  return viewers;
}
