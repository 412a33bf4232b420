import { z } from 'zod';

/** The claims the queue last listed, in its order, for this tab only (sessionStorage): the claim page's next and previous. */
const ORDER_KEY = 'claims-admin:queue-order:v1';
const QueueOrder = z.array(z.string()).max(1_000);

export function rememberQueueOrder(claimIds: readonly string[]): void {
  try {
    window.sessionStorage.setItem(ORDER_KEY, JSON.stringify(claimIds.slice(0, 1_000)));
  } catch {
    // Storage disabled: next and previous say there is no queue to move through.
  }
}

/** The claim `delta` places from this one in the queue last listed; null at either end or when it was not in it. */
export function neighbourInQueue(claimId: string, delta: 1 | -1): string | null {
  try {
    const parsed = QueueOrder.safeParse(JSON.parse(window.sessionStorage.getItem(ORDER_KEY) ?? '[]'));
    const order = parsed.success ? parsed.data : [];
    const at = order.indexOf(claimId);
    return at === -1 ? null : (order[at + delta] ?? null);
  } catch {
    return null;
  }
}
