import { z } from 'zod';
import { RuleInput, RuleView } from './automation.js';
import { Actor } from './events.js';

/*
 * A rule's versions, apart from automation.ts because events.ts imports that file and the actor comes from events.ts.
 */

/** One version of a rule as it was saved (money as decimals of the store's currency), when and by whom. */
export const RuleVersionEntry = z.object({
  version: z.number().int().positive(),
  rule: RuleInput.extend({ dailyLimit: RuleView.shape.dailyLimit }),
  at: z.iso.datetime(),
  actor: Actor,
});
export type RuleVersionEntry = z.infer<typeof RuleVersionEntry>;

/** `GET /api/stores/{storeId}/rules/{ruleId}/versions`: every version of the rule, newest first. */
export const RuleVersionList = z.object({ ruleId: z.uuid(), versions: z.array(RuleVersionEntry) });
export type RuleVersionList = z.infer<typeof RuleVersionList>;
