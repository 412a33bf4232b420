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
import { appendToStreams, storedDomainEvent, type NewEvent, type StreamAppend } from '@claims/event-store';
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

type StoreTerms = Awaited<ReturnType<typeof storeTermsOf>>;

/** The command an agent would send to do what the rule's action says, on the claim as it stands. */
function agentCommand(ctx: AppContext, claim: Claim, rule: StoredRule, terms: StoreTerms): ClaimCommand {
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
    ...terms,
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

type LoadedClaim = Awaited<ReturnType<typeof loadClaim>>;

/** What one rule decided on one claim, to append: the claim's (and its other streams') events and the rule-day's. */
interface RuleWrite {
  claimAppends: StreamAppend[];
  day: { streamId: string; streamType: string; events: NewEvent[]; state: RuleDayState };
}

/**
 * One rule on one claim as read (`claim`, `day`), deciding and writing nothing: `acted` ends the claim's rules (the rule
 * acted, had acted, or the claim is no longer to decide), `passed` lets the next rule try, `recorded` is a shadow
 * rule's record; `write` is what to append, null when nothing.
 */
async function planRule(
  ctx: AppContext,
  rule: StoredRule,
  filed: EventOf<'ClaimFiled'>['data'],
  subject: RuleSubject,
  claim: LoadedClaim,
  day: RuleDay,
  causationId: string,
  terms?: Promise<StoreTerms>,
): Promise<{ outcome: Outcome; write: RuleWrite | null }> {
  if (!claim || !isResolvable(claim.state)) return { outcome: 'acted', write: null };
  const mode = rule.rule.mode === 'shadow' ? 'shadow' : 'live';
  const meta = ruleMeta(rule, causationId);
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
  if (applied.value.length === 0)
    return { outcome: day.state.claimIds.has(filed.claimId) ? 'acted' : 'passed', write: null };
  const claimAppends: StreamAppend[] = [];
  if (mode === 'live') {
    const command = agentCommand(ctx, claim.state, rule, await (terms ?? storeTermsOf(ctx, claim.state)));
    const decision = claimDecider.decide(command, claim.state);
    if (!decision.ok) {
      // What an agent would be refused (a resolution the store stopped offering): the claim waits for a person.
      ctx.log.warn(
        { ruleId: rule.id, claimId: filed.claimId, error: decision.error },
        'a rule could not decide a claim',
      );
      return { outcome: 'acted', write: null };
    }
    for (const [streamId, group] of groupByStream(decision.value, meta))
      claimAppends.push({
        streamId,
        streamType: group.streamType,
        storeId: filed.storeId,
        expectedVersion: streamId === filed.claimId ? claim.version : 0,
        events: group.events,
      });
  }
  const streamId = ruleActivityStreamOf(rule.id, limitDayOf(filed.filedAt));
  const group = groupByStream(applied.value, meta).get(streamId)!;
  return {
    outcome: mode === 'live' ? 'acted' : 'recorded',
    write: {
      claimAppends,
      day: {
        streamId,
        streamType: group.streamType,
        events: group.events,
        state: applied.value.reduce(ruleDayDecider.evolve, day.state),
      },
    },
  };
}

/**
 * One rule on one claim, read and written on its own: the claim's command and the rule-day's record are appended in
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
  const dayStream = ruleActivityStreamOf(rule.id, limitDayOf(filed.filedAt));
  const held = daysHeldFor(ctx, limitDayOf(ctx.now()));
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const cached = attempt === 1 ? held.get(dayStream) : undefined;
    const [claim, day] = await Promise.all([
      loadClaim(ctx, filed.claimId),
      cached ?? loadAggregate(ctx, ruleDayDecider, dayStream),
    ]);
    const { outcome, write } = await planRule(ctx, rule, filed, subject, claim, day, causationId);
    if (!write) return outcome;
    const results = await appendToStreams(ctx.database.db, [
      dayAppend(filed.storeId, write.day, day.version),
      ...write.claimAppends,
    ]);
    if (results.every((r) => r.ok)) {
      held.set(dayStream, { state: write.day.state, version: day.version + write.day.events.length, events: [] });
      return outcome;
    }
    held.delete(dayStream);
  }
  throw new Error(`rule ${rule.id} kept meeting concurrent writers on claim ${filed.claimId}`);
}

const dayAppend = (
  storeId: string,
  day: { streamId: string; streamType: string; events: NewEvent[] },
  version: number,
): StreamAppend => ({
  streamId: day.streamId,
  streamType: day.streamType,
  storeId,
  expectedVersion: version,
  events: day.events,
});

type StoreRules = (storeId: string) => Promise<readonly StoredRule[]>;

/**
 * A batch's filings decided together, for the pace of filings: every claim read at once, each tried against its
 * store's rules in event order with each rule-day's state carried from one decision to the next in memory, and every
 * decision appended in one all-or-nothing append (each claim at the version it was decided on, each rule-day at the
 * version it was read at). One at a time, each decision cost its own reads and append: about 45 a second on two cores
 * against 100 filings a second (docs/benchmarks.md, Automation). False when it wrote nothing because a stream moved
 * meanwhile (an agent decided a claim, another process a rule's day) or a claim comes twice: then each is tried alone.
 */
async function decideTogether(
  ctx: AppContext,
  filings: ReadonlyArray<{ filed: EventOf<'ClaimFiled'>['data']; causationId: string }>,
  storeRules: StoreRules,
): Promise<boolean> {
  if (new Set(filings.map((f) => f.filed.claimId)).size < filings.length) return false;
  const claims = await Promise.all(filings.map((f) => loadClaim(ctx, f.filed.claimId)));
  // The store's terms of every claim still to decide, read side by side rather than one claim after another.
  const terms = claims.map((claim) => {
    if (!claim || !isResolvable(claim.state)) return undefined;
    const read = storeTermsOf(ctx, claim.state);
    read.catch(() => undefined);
    return read;
  });
  const held = daysHeldFor(ctx, limitDayOf(ctx.now()));
  const days = new Map<
    string,
    { read: RuleDay; now: RuleDay; storeId: string; streamType: string; events: NewEvent[] }
  >();
  const claimAppends: StreamAppend[] = [];
  for (const [i, { filed, causationId }] of filings.entries()) {
    const subject = subjectOfFiled(filed);
    for (const rule of await storeRules(filed.storeId)) {
      if (!ruleMatches(rule.rule, subject)) continue;
      const dayStream = ruleActivityStreamOf(rule.id, limitDayOf(filed.filedAt));
      let day = days.get(dayStream);
      if (!day) {
        const read = held.get(dayStream) ?? (await loadAggregate(ctx, ruleDayDecider, dayStream));
        day = { read, now: read, storeId: filed.storeId, streamType: '', events: [] };
        days.set(dayStream, day);
      }
      const { outcome, write } = await planRule(ctx, rule, filed, subject, claims[i]!, day.now, causationId, terms[i]);
      if (write) {
        claimAppends.push(...write.claimAppends);
        day.streamType = write.day.streamType;
        day.events.push(...write.day.events);
        day.now = { state: write.day.state, version: day.now.version + write.day.events.length, events: [] };
      }
      if (outcome === 'acted') break;
    }
  }
  const written = [...days].filter(([, day]) => day.events.length > 0);
  if (written.length === 0 && claimAppends.length === 0) return true;
  // The rule-days first: the contended streams (appendToStreams).
  const results = await appendToStreams(ctx.database.db, [
    ...written.map(([streamId, day]) =>
      dayAppend(day.storeId, { streamId, streamType: day.streamType, events: day.events }, day.read.version),
    ),
    ...claimAppends,
  ]);
  if (results.every((r) => r.ok)) {
    for (const [streamId, day] of written) held.set(streamId, day.now);
    return true;
  }
  for (const streamId of days.keys()) held.delete(streamId);
  return false;
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
  // A batch's decisions are read together and written in one append (decideTogether): 50 filings are half a second's
  // at 100 a second, and a batch a stream moved under is tried again claim by claim, so a larger one repeats more.
  batchSize: 50,
  async react(ctx, events) {
    const rulesOf = new Map<string, Promise<readonly StoredRule[]>>();
    const storeRules: StoreRules = (storeId) => {
      let rules = rulesOf.get(storeId);
      if (!rules) {
        rules = loadAggregate(ctx, storeRulesDecider, storeRulesStreamOf(storeId)).then((r) => activeRules(r.state));
        rulesOf.set(storeId, rules);
      }
      return rules;
    };
    const filings: Array<{ filed: EventOf<'ClaimFiled'>['data']; causationId: string }> = [];
    for (const event of events) {
      const filed = await filingToDecide(ctx, event);
      if (filed) filings.push({ filed, causationId: event.eventId });
    }
    if (await decideTogether(ctx, filings, storeRules)) return;
    for (const { filed, causationId } of filings) {
      const subject = subjectOfFiled(filed);
      for (const rule of await storeRules(filed.storeId)) {
        if (!ruleMatches(rule.rule, subject)) continue;
        if ((await tryRule(ctx, rule, filed, subject, causationId)) === 'acted') break;
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
