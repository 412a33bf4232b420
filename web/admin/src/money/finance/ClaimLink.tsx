import { Link } from '@tanstack/react-router';
import { shortId } from './references.js';

/**
 * A claim named as finance staff name it, by its number, linking to its page; a claim the claim list has not caught up
 * with yet falls back to the start of its id.
 */
export function ClaimLink({ claimId, claimNumber }: { claimId: string; claimNumber: string | undefined }) {
  return (
    <Link to="/claims/view/$claimRef" params={{ claimRef: claimId }} search={{}}>
      Claim {claimNumber === undefined ? shortId(claimId) : `#${claimNumber}`}
    </Link>
  );
}
