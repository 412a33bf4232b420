import { randomUUID } from 'node:crypto';
import {
  streamOf,
  type Actor,
  type ClaimCommand,
  type DomainEvent,
  type EventEnvelope,
  type EventOf,
  type FileClaim,
  type FilingScreening,
  type RuleAppliedData,
  type SenderType,
} from '@claims/contracts';
import {
  claimDecider,
  claimMailDecider,
  foldEvents,
  limitDayOf,
  orderClaimsDecider,
  ruleDayDecider,
  subjectOfFiled,
  type Decider,
  type RecordNotification,
  type RuleDayState,
  type StoredRule,
} from '@claims/domain';
import { EnvelopeLog } from './envelopeLog.js';
import { fileClaim, jacketAndMug, NOW, order, settings, storeTerms } from '../../../domain/test/fixtures.js';

export { NOW, order, storeTerms };

/** A claim of two of order 1001's lines (the jacket and the mug), and the ids its items are filed with: for decisions on some items. */
export const twoItems = (() => {
  const [first, second] = fileClaim().itemIds;
  return { request: jacketAndMug, itemIds: [first!, second!] as const };
})();

export const agent: Actor = { type: 'user', id: 'c2d9a1f0-5a7e-4a43-9b1f-2f3c4d5e6f70', name: 'Ana Agent' };
const shopper: Actor = { type: 'customer', id: 'ava@example.com', name: 'Ava Stone' };

/**
 * A claim's life told through the real deciders and wrapped in envelopes the way the store numbers
 * them: each event a version of its own stream and a global position; each decision a minute after the previous one.
 */
export class ClaimStory {
  private readonly log = new EnvelopeLog();
  readonly envelopes: EventEnvelope[] = this.log.envelopes;
  /** Each stream's events so far, for the deciders of streams other than the claim's and of the claim's besides its own. */
  private readonly streams = new Map<string, DomainEvent[]>();
  private claim = claimDecider.initialState;
  private mail = claimMailDecider.initialState;
  private readonly ruleDays = new Map<string, RuleDayState>();
  private clock: number;

  constructor(
    readonly claimId: string = randomUUID(),
    private readonly claimNumber = '10001',
    startsAt: string = NOW,
  ) {
    this.clock = Date.parse(startsAt);
  }

  /** Files the claim; with `screening`, as the API files it: risk assessed on the shopper's history and photos. */
  file(overrides: Partial<FileClaim['request']> = {}, screening?: FilingScreening): this {
    const command = {
      ...fileClaim(overrides),
      claimId: this.claimId,
      claimNumber: this.claimNumber,
      now: this.at(),
      ...(screening ? { screening } : {}),
    };
    return this.record(orderClaimsDecider, orderClaimsDecider.initialState, { ...command, order, settings }, shopper);
  }

  /**
   * A rule acting on the claim as filed (live) or recording what it would have done (shadow), in its rule-day stream
   * as the rule reaction records it; nothing when the day's limit or an earlier application leaves nothing to record.
   */
  applyRule(rule: StoredRule, mode: RuleAppliedData['mode']): this {
    const filed = this.envelopes.find((e) => e.type === 'ClaimFiled');
    if (!filed) throw new Error('a rule applies to a filed claim');
    const data = filed.data as EventOf<'ClaimFiled'>['data'];
    const day = limitDayOf(data.filedAt);
    const state = this.ruleDays.get(`${rule.id}:${day}`) ?? ruleDayDecider.initialState;
    const decided = ruleDayDecider.decide(
      {
        type: 'ApplyRule',
        storeId: data.storeId,
        rule,
        mode,
        claimId: data.claimId,
        claimNumber: data.claimNumber,
        filedAt: data.filedAt,
        subject: subjectOfFiled(data),
        now: this.at(),
      },
      state,
    );
    if (!decided.ok) throw new Error(`${decided.error.code}: ${decided.error.message}`);
    const actor: Actor = { type: 'rule', id: rule.id, version: rule.version, name: rule.rule.name };
    for (const event of decided.value) this.append(event, actor);
    this.ruleDays.set(`${rule.id}:${day}`, foldEvents(ruleDayDecider, decided.value, state));
    this.clock += 60_000;
    return this;
  }

  /** A claim command (the claim id is filled in), decided on the claim as the earlier events left it. */
  do(command: DistributiveOmit<ClaimCommand, 'claimId'>, actor: Actor = agent): this {
    return this.record(claimDecider, this.claim, { ...command, claimId: this.claimId }, actor);
  }

  /**
   * A command of another decider of a stream the story writes (a return on the claim's own stream, an A/B variant on
   * the shopper's session `ab-assignments:{sessionId}`), decided on the events that stream holds so far.
   */
  decide<State, Command>(decider: Decider<State, Command>, streamId: string, command: Command): this {
    return this.record(decider, foldEvents(decider, this.streams.get(streamId) ?? []), command, agent);
  }

  /** The id the claim's first item was filed with. */
  firstItemId(): string {
    const filed = this.streams.get(this.claimId)?.find((e) => e.type === 'ClaimFiled');
    if (filed?.type !== 'ClaimFiled') throw new Error('The claim is not filed yet');
    return filed.data.items[0]!.id;
  }

  /** A message on the claim, sent now. */
  message(messageContent: string, senderType: SenderType = 'merchant', senderName = 'Acme'): this {
    return this.do({
      type: 'SendMessage',
      messageId: randomUUID(),
      actor: agent,
      senderType,
      senderName,
      messageContent,
      medias: [],
      now: this.at(),
    });
  }

  /** A decision under the store's terms, now: of every item unless the request names some. */
  resolve(request: ResolveClaim['request'], resolutionIds: string[] = [randomUUID(), randomUUID()]): this {
    return this.do({ type: 'ResolveClaim', resolutionIds, actor: agent, now: this.at(), ...storeTerms, request });
  }

  /** A mail about the claim, recorded in its notifications stream as the notifications worker records it. */
  notify(scope: Omit<RecordNotification['scope'], 'claimId'>, outcome: RecordNotification['outcome']): this {
    const decided = claimMailDecider.decide(
      { type: 'RecordNotification', scope: { ...scope, claimId: this.claimId }, outcome, now: this.at() },
      this.mail,
    );
    if (!decided.ok) throw new Error(`${decided.error.code}: ${decided.error.message}`);
    for (const event of decided.value)
      this.append(event, { type: 'system', id: 'notifications', name: 'Notifications' });
    this.mail = foldEvents(claimMailDecider, decided.value, this.mail);
    this.clock += 60_000;
    return this;
  }

  /** Now, on the story's clock. */
  at(): string {
    return new Date(this.clock).toISOString();
  }

  private record<State, Command>(decider: Decider<State, Command>, state: State, command: Command, actor: Actor): this {
    const decided = decider.decide(command, state);
    if (!decided.ok) throw new Error(`${decided.error.code}: ${decided.error.message}`);
    for (const event of decided.value) this.append(event, actor);
    this.claim = foldEvents(claimDecider, decided.value, this.claim);
    this.clock += 60_000;
    return this;
  }

  private append(event: DomainEvent, actor: Actor): void {
    const { streamId } = streamOf(event);
    this.streams.set(streamId, [...(this.streams.get(streamId) ?? []), event]);
    this.log.append(event, order.storeId, this.at(), actor);
  }
}

type ResolveClaim = Extract<ClaimCommand, { type: 'ResolveClaim' }>;
type ReverseResolution = Extract<ClaimCommand, { type: 'ReverseResolution' }>;

/** The agent taking the claim's decision back on a chargeback, on the story's clock. */
export const chargeback = (story: ClaimStory): Omit<ReverseResolution, 'claimId'> => ({
  type: 'ReverseResolution',
  storeId: order.storeId,
  clawbackEntryIds: [randomUUID(), randomUUID()],
  reason: 'Charged back',
  actor: agent,
  now: story.at(),
});
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A claim's life with everything a webhook receiver hears about, and a note and a label it never does. */
export function busyClaim(): ClaimStory {
  const story = new ClaimStory().file();
  return story
    .do({ type: 'ChangeClaimStatus', to: 'OPEN', note: null })
    .do({
      type: 'SendMessage',
      messageId: randomUUID(),
      actor: agent,
      senderType: 'merchant',
      senderName: 'Acme',
      messageContent: 'Hi',
      medias: [],
      now: story.at(),
    })
    .do({ type: 'AddClaimNote', noteId: randomUUID(), actor: agent, body: 'internal', now: story.at() })
    .do({ type: 'AddClaimLabel', label: 'vip' })
    .do({
      type: 'ResolveClaim',
      resolutionIds: [randomUUID()],
      actor: agent,
      now: story.at(),
      ...storeTerms,
      request: { resolutionType: 'REFUND' },
    })
    .do({ type: 'AddReview', reviewId: randomUUID(), now: story.at(), review: { rating: 4, text: 'ok' } });
}
