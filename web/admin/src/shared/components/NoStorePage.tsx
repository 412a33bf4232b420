import { Alert, Page } from '@claims/ui/components';

/** A per-store page for a user with no store whose `what` they may see. */
export function NoStorePage({ title, what }: { title: string; what: string }) {
  return (
    <Page title={title}>
      <Alert tone="info">{`You have no store whose ${what} you may see.`}</Alert>
    </Page>
  );
}
