import { RuleActivityList } from '@claims/contracts';
import { request } from '@claims/ui/http';

/** `GET /api/admin/claims/{id}/rule-activity`: what the store's rules did (live) or would have done (shadow) to it. */
export const claimRuleActivity = (claimId: string) =>
  request('GET', `admin/claims/${encodeURIComponent(claimId)}/rule-activity`, { schema: RuleActivityList });
