import {
  claimNotificationsStreamOf,
  type DomainEvent,
  Message,
  type NotificationKind,
  type Store,
} from '@claims/contracts';
import { storedDomainEvent, type Alongside } from '@claims/event-store';
import {
  claimDecider,
  claimMailDecider,
  notificationKindOf,
  teamNotificationKindOf,
  type ClaimMailState,
  type RecordNotification,
} from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { findStores } from '../catalog/storeRepository.js';
import {
  foldRecorded,
  handleCommand,
  handleCommandsInBatch,
  loadAggregates,
  type BatchedCommand,
  type Loaded,
} from '../eventsourcing/commandHandler.js';
import { groupCommit } from '../eventsourcing/groupCommit.js';
import { eachInOrderPerKey } from '../eventsourcing/inOrderPerKey.js';
import { nameBasedId } from '../eventsourcing/nameBasedId.js';
import { withStoreReplyTo, type Mail, type Mailer } from './mailer.js';
import { claimMail, type ClaimAfter } from './claimMails.js';
import { mailStore } from './mailLayout.js';
import { teamMail } from './teamMails.js';
import { issueClaimLinks } from './claimLinkIssuer.js';
import { clearRetries, sendRecorded, type NotificationCause } from './notificationRetries.js';
import { MAX_ATTEMPTS, notificationMeta, RECORD_MAIL } from './retrySchedule.js';
import { teamRecipients, type TeamRecipient } from './teamRecipients.js';

/** Mail about a claim: the shopper's, or one team member's. */
export type ClaimMailCause = NotificationCause & { job: { kind: 'shopper' } | { kind: 'member'; memberId: string } };

/** One notification per event and recipient: a repeat of the event (or a retry) finds it sent and sends nothing. */
export const claimNotificationId = (cause: Pick<ClaimMailCause, 'eventId' | 'job'>): string =>
  nameBasedId(
    cause.job.kind === 'shopper'
      ? `notification:${cause.eventId}:customer`
      : `notification:${cause.eventId}:member:${cause.job.memberId}`,
  );

/** Who a notification goes to, as what, and how its mail is written (a shopper's carries a fresh claim link). */
interface MailPlan {
  kind: NotificationKind;
  to: string;
  memberId?: string;
  /** The shopper's mail carries a link to the claim, issued for it (issueClaimLinks). */
  linked: boolean;
  compose(link: string | null): Mail;
}

async function planFor(
  ctx: AppContext,
  cause: ClaimMailCause,
  after: ClaimAfter,
  store: Store,
  member: TeamRecipient | undefined,
): Promise<MailPlan | null> {
  const { claim, event } = after;
  const message = event.type === 'ClaimMessageSent' ? Message.parse(event.data) : null;
  if (cause.job.kind === 'shopper') {
    const kind = notificationKindOf(event);
    return (
      kind && {
        kind,
        to: claim.customer.email,
        linked: true,
        compose: (link) => withStoreReplyTo(claimMail(kind, after, store, link ?? '', message), store),
      }
    );
  }
  const kind = teamNotificationKindOf(event);
  const memberId = cause.job.memberId;
  const current = member ?? (kind ? (await teamRecipients(ctx, store, kind, memberId))[0] : undefined);
  if (!kind || !current) return null;
  const desk = `${ctx.config.publicUrl}/admin`;
  return {
    kind,
    to: current.email,
    memberId,
    linked: false,
    compose: () =>
      teamMail(
        kind,
        current.email,
        claim,
        store,
        { claim: `${desk}/claims/view/${claim.id}`, settings: `${desk}/profile` },
        message,
      ),
  };
}

/**
 * What the caller already holds and need not be read again: the event itself (the claim's first event alone makes the
 * claim), the store, and the member who wants the mail (read just before).
 */
export interface HeldFacts {
  event?: DomainEvent;
  store?: Store;
  member?: TeamRecipient;
}

/** One mail about a claim to send: why, and what the caller holds already. */
export interface ClaimMailJob {
  cause: ClaimMailCause;
  held?: HeldFacts;
}

/**
 * The claim as it stood just after each job's event, and that event (a later reply or decision gets a mail of its
 * own): a claim's first event alone makes it, every other claim is read in one query for the whole batch.
 */
async function claimsAfter(ctx: AppContext, jobs: readonly ClaimMailJob[]): Promise<Map<ClaimMailJob, ClaimAfter>> {
  const alone = (job: ClaimMailJob) => job.held?.event !== undefined && job.cause.streamVersion === 1;
  const streams = await loadAggregates(
    ctx,
    claimDecider,
    jobs.filter((job) => !alone(job)).map((job) => job.cause.streamId),
  );
  const afters = new Map<ClaimMailJob, ClaimAfter>();
  for (const job of jobs) {
    const held = job.held?.event;
    if (held && alone(job)) {
      const claim = foldRecorded(claimDecider, [held]);
      if (claim) afters.set(job, { claim, event: held, events: [held] });
      continue;
    }
    const events = streams.get(job.cause.streamId)?.events.filter((e) => e.streamVersion <= job.cause.streamVersion);
    const recorded = events?.find((e) => e.eventId === job.cause.eventId);
    const claim = events && foldRecorded(claimDecider, events);
    if (events && recorded && claim) afters.set(job, { claim, event: storedDomainEvent(recorded), events });
  }
  return afters;
}

/** A job ready to send: its notification, the claim after its event, the store as mail shows it, and the plan. */
interface Planned {
  job: ClaimMailJob;
  notificationId: string;
  attempts: number;
  stream: string;
  store: Store;
  meta: RequestMeta;
  plan: MailPlan;
  link: string | null;
}

/**
 * Sends the mail each job's event of a claim causes to its recipient, unless it went out already, and records each
 * outcome in the claim's notifications stream (never the claim's, whose version agents work at); a failure also
 * schedules the next try in the same transaction, so neither the failure nor the retry can be lost. A member is mailed
 * only while they still want it (`held.member`, when the caller has just read that; else it is read again).
 *
 * A batch at a time: the notifications streams, the claims, the stores and the claim links are read and written in a
 * few statements for all its jobs; the mails go out over the mailer's connections at once, each claim's in the order
 * of its events; each is recorded as soon as it is sent (gathered with the others sent meanwhile into one append), so
 * a crash or a retry finds it sent and never sends it again.
 */
export async function deliverClaimMails(ctx: AppContext, mailer: Mailer, jobs: readonly ClaimMailJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const db = ctx.database.db;
  const streamOf = (job: ClaimMailJob) => claimNotificationsStreamOf(job.cause.streamId);
  const mails = await loadAggregates(ctx, claimMailDecider, jobs.map(streamOf));
  const finished: string[] = [];
  const open = jobs.filter((job) => {
    const notificationId = claimNotificationId(job.cause);
    const { state } = mails.get(streamOf(job))!;
    const done = state.sent.has(notificationId) || (state.attempts.get(notificationId) ?? 0) >= MAX_ATTEMPTS;
    if (done) finished.push(notificationId);
    return !done;
  });
  const afters = await claimsAfter(ctx, open);
  const stores = await findStores(
    db,
    [...afters].flatMap(([job, after]) => (job.held?.store?.id === after.claim.storeId ? [] : [after.claim.storeId])),
  );
  for (const job of open) if (job.held?.store) stores.set(job.held.store.id, job.held.store);
  const mailStores = new Map<string, Store>();
  const planned: Planned[] = [];
  for (const job of open) {
    const after = afters.get(job);
    const found = after && stores.get(after.claim.storeId);
    if (!after || !found) continue;
    let store = mailStores.get(found.id);
    if (!store) mailStores.set(found.id, (store = await mailStore(ctx, found)));
    const notificationId = claimNotificationId(job.cause);
    const plan = await planFor(ctx, job.cause, after, store, job.held?.member);
    // Nothing to mail (no longer a member, or no longer wanting it): nothing to retry either.
    if (!plan) finished.push(notificationId);
    else
      planned.push({
        job,
        notificationId,
        attempts: mails.get(streamOf(job))!.state.attempts.get(notificationId) ?? 0,
        stream: streamOf(job),
        store,
        meta: notificationMeta(job.cause),
        plan,
        link: null,
      });
  }
  await clearRetries(db, finished);
  const linked = planned.filter((p) => p.plan.linked);
  const links = await issueClaimLinks(
    ctx,
    linked.map((p) => ({ claim: afters.get(p.job)!.claim, meta: p.meta })),
  );
  linked.forEach((p, i) => (p.link = links[i]!));
  const recordSent = groupCommit((commands: readonly BatchedCommand<RecordNotification>[]) =>
    handleCommandsInBatch(ctx, claimMailDecider, commands, mails),
  );
  await eachInOrderPerKey(
    planned,
    (p) => p.job.cause.streamId,
    mailer.concurrency,
    (p) => sendPlanned(ctx, mailer, p, mails, recordSent),
  );
}

async function sendPlanned(
  ctx: AppContext,
  mailer: Mailer,
  planned: Planned,
  mails: Map<string, Loaded<ClaimMailState>>,
  recordSent: (
    command: BatchedCommand<RecordNotification>,
  ) => Promise<Awaited<ReturnType<typeof handleCommandsInBatch<ClaimMailState, RecordNotification>>>[number]>,
): Promise<void> {
  const { job, notificationId, attempts, stream, store, meta, plan } = planned;
  const claimId = job.cause.streamId;
  let subject: string | undefined;
  const record = async (outcome: RecordNotification['outcome'], alongside?: Alongside) => {
    const command: RecordNotification = {
      type: 'RecordNotification',
      now: ctx.now(),
      outcome,
      scope: {
        claimId,
        notificationId,
        kind: plan.kind,
        causedBy: job.cause.eventId,
        to: plan.to,
        ...(plan.memberId ? { memberId: plan.memberId } : {}),
        ...(subject ? { subject } : {}),
      },
    };
    if (!alongside) {
      const recorded = await recordSent({
        streamId: stream,
        storeId: store.id,
        meta,
        command,
        onConflict: RECORD_MAIL,
      });
      if (!recorded.ok) throw recorded.error;
      return;
    }
    // With rows of its own (a retry scheduled or cleared): its own transaction, decided on the stream as held.
    mails.set(
      stream,
      await handleCommand(ctx, {
        decider: claimMailDecider,
        streamId: stream,
        storeId: store.id,
        meta,
        alongside,
        onConflict: RECORD_MAIL,
        ...(mails.get(stream) ? { loaded: mails.get(stream)! } : {}),
        command,
      }),
    );
  };
  const tried = await sendRecorded(
    ctx.database.db,
    { notificationId, cause: job.cause, attempts, now: ctx.now },
    async () => {
      const composed = plan.compose(planned.link);
      subject = composed.subject;
      await mailer.send(composed);
      return { sent: true } as const;
    },
    record,
  );
  if (tried.outcome === 'failed') {
    ctx.log.warn(
      { claimId, kind: plan.kind, attempt: tried.attempt, next: tried.next },
      'mail about a claim failed; it will be tried again unless given up',
    );
  }
}

/** One mail about a claim (a retry come due): a batch of one. */
export const deliverClaimMail = (ctx: AppContext, mailer: Mailer, cause: ClaimMailCause, held: HeldFacts = {}) =>
  deliverClaimMails(ctx, mailer, [{ cause, held }]);

/**
 * Every team member who wants the mail each claim event causes gets it, each on their own (one failing holds no other
 * back): the stores and their recipients are read once per store and kind in the batch, not once per event.
 */
export async function notifyTeamOf(
  ctx: AppContext,
  mailer: Mailer,
  events: ReadonlyArray<{ cause: Omit<ClaimMailCause, 'job'>; event: DomainEvent; storeId: string }>,
): Promise<void> {
  const wanted = events.filter((e) => teamNotificationKindOf(e.event));
  const stores = await findStores(
    ctx.database.db,
    wanted.map((e) => e.storeId),
  );
  const recipients = new Map<string, TeamRecipient[]>();
  const jobs: ClaimMailJob[] = [];
  for (const { cause, event, storeId } of wanted) {
    const kind = teamNotificationKindOf(event)!;
    const store = stores.get(storeId);
    if (!store) continue;
    const key = `${storeId}:${kind}`;
    let members = recipients.get(key);
    if (!members) recipients.set(key, (members = await teamRecipients(ctx, store, kind)));
    for (const member of members)
      jobs.push({
        cause: { ...cause, job: { kind: 'member', memberId: member.userId } },
        held: { event, store, member },
      });
  }
  await deliverClaimMails(ctx, mailer, jobs);
}
