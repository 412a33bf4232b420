import { useEffect, useEffectEvent, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Page } from '@claims/ui/components';

/**
 * What a reference looked up among claims or orders found: a single match opens at once (the lookup page stays while
 * it does), a failed lookup is said, and otherwise `list` shows the matches (or that there are none).
 */
export function ReferenceMatches<T>({
  found,
  reference,
  finding,
  open,
  list,
}: {
  found: UseQueryResult<{ data: T[] }>;
  reference: string;
  finding: string;
  open: (only: T) => void;
  list: (matches: T[]) => ReactNode;
}) {
  const only = found.data?.data.length === 1 ? found.data.data[0] : undefined;
  const openOnly = useEffectEvent(open);
  useEffect(() => {
    if (only) openOnly(only);
  }, [only]);
  if (found.isPending || only)
    return (
      <Page title={finding}>
        <p role="status">Looking up {reference}…</p>
      </Page>
    );
  if (found.isError)
    return (
      <Page title="Something went wrong">
        <Alert>{found.error.message}</Alert>
      </Page>
    );
  return list(found.data.data);
}
