import { randomUUID } from 'node:crypto';
import {
  readerOf,
  ruleActivityStreamOf,
  storeRulesStreamOf,
  type Claim,
  type ClaimCommand,
  type EventOf,
  ignoring,
} from '@claims/contracts';
import {
  activeRules,
  claimDecider,
  decidedItemIds,
  isResolvable,
  limitDayOf,
  ruleDayDecider,
  ruleMatches,
  storeRulesDecider,
  subjectOfFiled,
  type RuleDayState,
  type RuleSubject,
  type StoredRule,
} from '@claims/domain';
import { appendToStreams, storedDomainEvent, type StreamAppend } from '@claims/event-store';
import type { AppContext, RequestMeta } from '../context.js';
import { loadAggregate, type Loaded } from '../eventsourcing/commandHandler.js';
import { groupByStream } from '../eventsourcing/newEvents.js';
import type { ReactedEvent, Reaction } from '../eventsourcing/reactions.js';
import { loadClaim } from '../http/authorizedClaim.js';
import { storeTermsOf } from '../resolutions/index.js';

const DEFAULT_HOLD_LABEL = 'Held by rule';
/** Tries of one rule against writers of the same claim or rule-day (an agent, another process) before giving up. */
const ATTEMPTS = 5;

/** The rule as an actor: what history, mail and webhooks show, and API v1's `decidedBy`. */
const ruleMeta = (rule: StoredRule, causationId: string): RequestMeta => ({
  actor: { type: 'rule', id: rule.id, version: rule.version, name: rule.rule.name },
  correlationId: causationId,
  causationId,
});

/** The command an agent would send to do what the rule's action says, on the claim as it stands. */
async function agentCommand(ctx: AppContext, claim: Claim, rule: StoredRule): Promise<ClaimCommand> {
  const { action } = rule.rule;
  if (action.type === 'hold')
    return { type: 'AddClaimLabel', claimId: claim.id, label: action.label ?? DEFAULT_HOLD_LABEL };
  const decided = decidedItemIds(claim);
  const open = claim.items.filter((item) => !decided.has(item.id));
  const request =
    action.type === 'deny'
      ? { resolutionType: 'DENY' as const, reason: action.reason! }
      : {
          resolutionType: action.resolutionType ?? claim.desiredMethod,
          // The resolution each item's shopper asked for, as an agent approving the claim gives it.
          items: open.map((item) => ({
            claimItemId: item.id,
            resolutionType: action.resolutionType ?? item.resolutionRequested,
          })),
        };
  return {
    type: 'ResolveClaim',
    claimId: claim.id,
    resolutionIds: Array.from({ length: Math.max(1, open.length) }, () => randomUUID()),
    actor: { type: 'rule', id: rule.id, version: rule.version, name: rule.rule.name },
    now: ctx.now(),
    request,
    ...(await storeTermsOf(ctx, claim)),
  };
}

type Outcome = 'acted' | 'recorded' | 'passed';

type RuleDay = Loaded<RuleDayState>;

/**
 * Each rule-day's state as this process last appended it, per database: a day stream gains an event per decision, so
 * reading it again for each decision would cost the day's length every time. A stale entry (another process decided
 * meanwhile) fails its append on the version and is read afresh; entries of past days are dropped as days turn.
 */
const heldDays = new WeakMap<object, Map<string, RuleDay>>();

function daysHeldFor(ctx: AppContext, today: string): Map<string, RuleDay> {
  let days = heldDays.get(ctx.database);
  if (!days) heldDays.set(ctx.database, (days = new Map()));
  for (const streamId of days.keys()) if (streamId.slice(-10) < today) days.delete(streamId);
  return days;
}

/**
 * One rule on one claim: the claim's command and the rule-day's record are decided on what was read and appended in
 * one transaction at both versions, so a decision never outruns the day's limit and a claim decided meanwhile (by an
 * agent) is decided again on its new state. A shadow rule appends its record only.
 */
async function tryRule(
  ctx: AppContext,
  rule: StoredRule,
  filed: EventOf<'ClaimFiled'>['data'],
  subject: RuleSubject,
  causationId: string,
): Promise<Outcome> {
  const mode = rule.rule.mode === 'shadow' ? 'shadow' : 'live';
  const dayStream = ruleActivityStreamOf(rule.id, limitDayOf(filed.filedAt));
  const meta = ruleMeta(rule, causationId);
  const held = daysHeldFor(ctx, limitDayOf(ctx.now()));
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const cached = attempt === 1 ? held.get(dayStream) : undefined;
    const [claim, day] = await Promise.all([
      loadClaim(ctx, filed.claimId),
      cached ?? loadAggregate(ctx, ruleDayDecider, dayStream),
    ]);
    if (!claim || !isResolvable(claim.state)) return 'acted';
    const applied = ruleDayDecider.decide(
      {
        type: 'ApplyRule',
        storeId: filed.storeId,
        rule,
        mode,
        claimId: filed.claimId,
        claimNumber: filed.claimNumber,
        filedAt: filed.filedAt,
        subject,
        now: ctx.now(),
      },
      day.state,
    );
    if (!applied.ok) throw new Error(applied.error.message);
    // Already applied by this rule (a repeat): done; past its daily limit: the next rule may act.
    if (applied.value.length === 0) return day.state.claimIds.has(filed.claimId) ? 'acted' : 'passed';
    const appends: StreamAppend[] = [];
    if (mode === 'live') {
      const decision = claimDecider.decide(await agentCommand(ctx, claim.state, rule), claim.state);
      if (!decision.ok) {
        // What an agent would be refused (a resolution the store stopped offering): the claim waits for a person.
        ctx.log.warn(
          { ruleId: rule.id, claimId: filed.claimId, error: decision.error },
          'a rule could not decide a claim',
        );
        return 'acted';
      }
      for (const [streamId, group] of groupByStream(decision.value, meta))
        appends.push({
          streamId,
          streamType: group.streamType,
          storeId: filed.storeId,
          expectedVersion: streamId === filed.claimId ? claim.version : 0,
          events: group.events,
        });
    }
    for (const [streamId, group] of groupByStream(applied.value, meta))
      appends.push({
        streamId,
        streamType: group.streamType,
        storeId: filed.storeId,
        expectedVersion: day.version,
        events: group.events,
      });
    const results = await appendToStreams(ctx.database.db, appends);
    if (results.every((r) => r.ok)) {
      held.set(dayStream, {
        state: applied.value.reduce(ruleDayDecider.evolve, day.state),
        version: day.version + applied.value.length,
        events: [],
      });
      return mode === 'live' ? 'acted' : 'recorded';
    }
    held.delete(dayStream);
  }
  throw new Error(`rule ${rule.id} kept meeting concurrent writers on claim ${filed.claimId}`);
}

/**
 * Contract §Automation: on filing (and on new photos from the shopper, should rules have changed since), the store's
 * rules are tried in order against the claim as filed; the first live rule that matches and is within its daily
 * limit acts with the commands an agent would send, as the actor `{type: "rule", id, version}`, so history, mail,
 * webhooks and finance read it unchanged. A shadow rule that matches records what it would have done and the next
 * rule is tried. The kill switch stops them all.
 */
export const decideByRules: Reaction = {
  name: 'decide-by-rules',
  fromFirstRun: 'now',
  ...readerOf(['claim'], {
    ClaimFiled: 'handle',
    ClaimStatusChanged: 'ignore',
    ClaimMessageSent: 'handle',
    ClaimReviewed: 'ignore',
    ClaimAssigned: 'ignore',
    ...ignoring('decisions', 'deskMarks', 'returns'),
  }),
  // Each decision is its own optimistic write (the claim and the rule's day, for the daily limit), so a batch saves
  // the checkpoint's moves and the store's rules read once per store, not the decisions themselves; in event order.
  batchSize: 50,
  async react(ctx, events) {
    const rulesOf = new Map<string, Promise<ReturnType<typeof activeRules>>>();
    const storeRules = (storeId: string) => {
      let rules = rulesOf.get(storeId);
      if (!rules) {
        rules = loadAggregate(ctx, storeRulesDecider, storeRulesStreamOf(storeId)).then((r) => activeRules(r.state));
        rulesOf.set(storeId, rules);
      }
      return rules;
    };
    for (const event of events) {
      const filed = await filingToDecide(ctx, event);
      if (!filed) continue;
      const subject = subjectOfFiled(filed);
      for (const rule of await storeRules(filed.storeId)) {
        if (!ruleMatches(rule.rule, subject)) continue;
        if ((await tryRule(ctx, rule, filed, subject, event.eventId)) === 'acted') break;
      }
    }
  },
};

/** The filing a rule may decide on this event: the filing itself, or an undecided claim's when its shopper sends photos. */
async function filingToDecide(ctx: AppContext, event: ReactedEvent): Promise<EventOf<'ClaimFiled'>['data'] | null> {
  if (event.type === 'ClaimFiled') return event.data;
  if (event.type !== 'ClaimMessageSent' || event.data.senderType !== 'customer' || event.data.medias.length === 0)
    return null;
  const claim = await loadClaim(ctx, event.data.claimId);
  const first = claim?.events[0] && storedDomainEvent(claim.events[0]);
  if (!claim || !isResolvable(claim.state) || first?.type !== 'ClaimFiled') return null;
  return first.data;
}
