import { useSyncExternalStore } from 'react';
import type { BrandingPreviewMessage } from '@claims/contracts';
import { loadSchemas } from './api.js';

/**
 * The branding editor's live preview: the back-office frames the portal with `?preview=branding` and posts
 * each unsaved branding to it. Only a page framed by this same origin listens, and only to its parent.
 */
let preview: BrandingPreviewMessage | null = null;
const listeners = new Set<() => void>();

const framedForPreview = () =>
  typeof window !== 'undefined' &&
  window.parent !== window &&
  new URLSearchParams(window.location.search).get('preview') === 'branding';

/** Only a framed preview loads the message's schema: a shopper's page never does. */
export async function installBrandingPreview(): Promise<void> {
  if (!framedForPreview()) return;
  const { BRANDING_PREVIEW_MESSAGE, BrandingPreviewMessage } = await loadSchemas();
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (event.origin !== window.location.origin || event.source !== window.parent) return;
    const parsed = BrandingPreviewMessage.safeParse(event.data);
    if (!parsed.success || parsed.data.type !== BRANDING_PREVIEW_MESSAGE) return;
    preview = parsed.data;
    for (const listener of listeners) listener();
  });
  // Tells the editor the frame is ready for the draft it holds (it may have changed before the frame loaded).
  window.parent.postMessage({ type: `${BRANDING_PREVIEW_MESSAGE}:ready` }, window.location.origin);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The editor's draft while previewing, else null. */
export const useBrandingPreview = (): BrandingPreviewMessage | null =>
  useSyncExternalStore(
    subscribe,
    () => preview,
    () => null,
  );
