import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Page } from '@claims/ui/components';
import { Link } from '@tanstack/react-router';
import { HttpError } from './api.js';
import { CLAIM_TYPE_FLAGS, ITEM_ISSUE_LABELS, SHIPMENT_ISSUE_LABELS, type ClaimType } from '@claims/contracts';

export function BackLink({ to, children = 'Go Back' }: { to: string; children?: ReactNode }) {
  return (
    <Link to={to} className="button button-secondary">
      {children}
    </Link>
  );
}

/** The way back to the claim a page came from (by its claim link). */
/**
 * A claim link that did not load: not found (a wrong or outdated link), or failed (to try again). The page's title is
 * `title`, else what went wrong.
 */
export function ClaimMissing({ error, title }: { error: unknown; title?: string }) {
  const notFound = error instanceof HttpError && error.status === 404;
  return (
    <Page title={title ?? (notFound ? 'Claim not found' : 'Something went wrong')}>
      <Alert>
        {notFound
          ? "We couldn't find a claim for that link. Check the link in your email."
          : 'Your claim could not be loaded. Please try again.'}
      </Alert>
    </Page>
  );
}

export function BackToClaim({ token }: { token: string }) {
  return (
    <Link to="/view/$token" params={{ token }}>
      Back to my claim
    </Link>
  );
}

/** The shopper's own words about an issue, on a shipment's page and in an item's dialog. */
export function IssueDetails({
  value,
  onChange,
  rows,
}: {
  value: string;
  onChange: (details: string) => void;
  rows: number;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Provide an additional information</label>
      <textarea
        id={id}
        rows={rows}
        maxLength={5000}
        placeholder="Tell us briefly about the issue"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** The end of a flow step's form: its error, if any, then Go Back and Continue. */
export function StepFooter({ error, back }: { error: string | null; back: string }) {
  return (
    <>
      {error ? <Alert>{error}</Alert> : null}
      <div className="actions">
        <BackLink to={back} />
        <button type="submit" className="button button-primary">
          Continue
        </button>
      </div>
    </>
  );
}

/**
 * A flow step's form: Continue shows `problem` (what is still missing, null when nothing is) or goes on to `next`;
 * the error is cleared by the next try only.
 */
export function useStepForm(problem: string | null, next: () => void) {
  const [error, setError] = useState<string | null>(null);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(problem);
    if (!problem) next();
  }
  return { error, onSubmit };
}

/** A flow step opened before the one it needs: what is missing, and the way back to where it is given. */
export function StepNeeds({
  title,
  subtitle,
  missing,
  back,
}: {
  title: string;
  subtitle?: string;
  missing: string;
  back: string;
}) {
  return (
    <Page title={title} subtitle={subtitle}>
      <Alert>{missing}</Alert>
      <BackLink to={back} />
    </Page>
  );
}

export function ItemThumb({ src, name }: { src: string | undefined; name: string }) {
  return src ? (
    <img className="thumb" src={src} alt="" width={56} height={56} />
  ) : (
    <span className="thumb thumb-empty" aria-hidden="true">
      {name.slice(0, 1)}
    </span>
  );
}

const ISSUE_LABELS: Record<string, string> = { ...SHIPMENT_ISSUE_LABELS, ...ITEM_ISSUE_LABELS };

/** The shopper-facing label of an issue or claim type (humanised code when it has none). */
export function issueLabel(code: ClaimType | string | null | undefined): string {
  if (!code) return '';
  if (ISSUE_LABELS[code]) return ISSUE_LABELS[code];
  const known = Object.hasOwn(CLAIM_TYPE_FLAGS, code);
  const words = code.toLowerCase().replace(/_/g, ' ');
  return known ? `${words[0]?.toUpperCase() ?? ''}${words.slice(1)}` : code;
}
