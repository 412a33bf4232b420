import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  CLAIM_STATUS_LABELS,
  ClaimStatus,
  RETURN_STATUS_LABELS,
  ReturnStatus,
  type Actor,
  type AdminClaimDetail,
  type TimelineResponse,
} from '@claims/contracts';
import { formatDateTime, pluralize } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { Fact, StatusBadge } from '../../shared/components/ui.js';
import { claimTypeLabel, requestedResolutionLabel, resolutionTypeLabel } from '../../shared/labels.js';
import { summarizeResolutions } from './resolutionSummary.js';
import { decisionText, lineSubject } from './decisionText.js';
import { claimQueries } from '../queries.js';
import { FoldingCard } from '../../shared/components/FoldingCard.js';

type Entry = TimelineResponse['data'][number];

const statusLabel = (value: unknown) => {
  const parsed = ClaimStatus.safeParse(value);
  return parsed.success ? CLAIM_STATUS_LABELS[parsed.data] : String(value ?? '');
};

const Filed = z.object({ claimType: z.string(), items: z.number(), desiredMethod: z.string() });
const StatusChanged = z.object({ from: z.string(), to: z.string(), note: z.string().nullable().optional() });
const Resolved = z.object({
  outcome: z.string(),
  resolutionTypes: z.array(z.string()),
  resolutionIds: z.array(z.string()).optional(),
});
const Reversed = z.object({ reason: z.string() });
const MessageSent = z.object({ senderName: z.string(), senderType: z.string() });
const Reviewed = z.object({ rating: z.number() });
const NoteAdded = z.object({ author: z.string() });
const LabelChanged = z.object({ label: z.string() });
const MetadataSet = z.object({ key: z.string(), value: z.string(), previous: z.string().nullable().optional() });
const ReturnStarted = z.object({ code: z.string(), handling: z.string() });
const ReturnMoved = z.object({ from: ReturnStatus, to: ReturnStatus, note: z.string().nullable().optional() });
const Mail = z.object({
  to: z.string().nullable(),
  subject: z.string().nullable(),
  attempt: z.number(),
  sent: z.boolean(),
  error: z.string().optional(),
  nextAttemptAt: z.string().nullable().optional(),
});

/** A mail line: "Email sent to …: <subject>", or its failure with the next try (or that it was given up). */
function describeMail(entry: Entry): { title: string; detail: string | null } {
  const s = Mail.safeParse(entry.summary);
  if (!s.success)
    return { title: entry.eventType === 'ClaimNotificationSent' ? 'Email sent' : 'Email failed', detail: null };
  const { to, subject, attempt, sent } = s.data;
  const recipient = to ?? 'the customer';
  const about = subject ? `: ${subject}` : '';
  if (sent)
    return { title: `Email sent to ${recipient}${about}`, detail: attempt > 1 ? `Sent on attempt ${attempt}.` : null };
  const next = s.data.nextAttemptAt ? `Retrying at ${formatDateTime(s.data.nextAttemptAt)}.` : 'Given up.';
  return {
    title: `Email to ${recipient} failed${about}`,
    detail: `Attempt ${attempt}: ${s.data.error ?? 'unknown error'}. ${next}`,
  };
}

/** What a decision's lines issued ("Socks: Refund $9.00; Mug: Denied: …"), from the claim as loaded. */
function decidedDetail(ids: readonly string[] | undefined, claim: AdminClaimDetail | undefined): string | null {
  if (!ids || !claim) return null;
  const lines = ids.flatMap((id) => claim.resolutions.filter((r) => r.id === id));
  return lines.length
    ? lines.map((line) => `${lineSubject(line, claim)}: ${decisionText(line, claim)}`).join('; ')
    : null;
}

/** What a history line says, in words (a decision's amounts need the claim). */
export function describeEntry(entry: Entry, claim?: AdminClaimDetail): { title: string; detail: string | null } {
  if (entry.source === 'notifications') return describeMail(entry);
  switch (entry.eventType) {
    case 'ClaimFiled': {
      const s = Filed.safeParse(entry.summary);
      return {
        title: 'Claim filed',
        detail: s.success
          ? `${claimTypeLabel(s.data.claimType)}, ${pluralize(s.data.items, 'item')}, requested ${requestedResolutionLabel(s.data.desiredMethod)}`
          : null,
      };
    }
    case 'ClaimStatusChanged': {
      const s = StatusChanged.safeParse(entry.summary);
      return s.success
        ? {
            title: `Status changed from ${statusLabel(s.data.from)} to ${statusLabel(s.data.to)}`,
            detail: s.data.note ?? null,
          }
        : { title: 'Status changed', detail: null };
    }
    case 'ClaimResolved': {
      const s = Resolved.safeParse(entry.summary);
      if (!s.success) return { title: 'Claim resolved', detail: null };
      const detail = decidedDetail(s.data.resolutionIds, claim);
      const types = s.data.resolutionTypes.map(resolutionTypeLabel).join(', ');
      // A pass that leaves items undecided keeps the claim's status: it decided items, not the claim.
      if (entry.status !== 'RESOLVED' && entry.status !== 'DENIED') return { title: `Items decided: ${types}`, detail };
      return entry.status === 'DENIED'
        ? { title: 'Claim denied', detail }
        : { title: `Claim resolved: ${types}`, detail };
    }
    case 'ClaimResolutionReversed': {
      const s = Reversed.safeParse(entry.summary);
      return { title: 'Resolution reversed', detail: s.success ? `Reason: ${s.data.reason}` : null };
    }
    case 'ClaimMessageSent': {
      const s = MessageSent.safeParse(entry.summary);
      return { title: s.success ? `Message from ${s.data.senderName}` : 'Message sent', detail: null };
    }
    case 'ClaimReviewed': {
      const s = Reviewed.safeParse(entry.summary);
      return { title: s.success ? `Review: ${s.data.rating} of 5 stars` : 'Review left', detail: null };
    }
    case 'ClaimNoteAdded': {
      const s = NoteAdded.safeParse(entry.summary);
      return { title: s.success ? `Internal note added by ${s.data.author}` : 'Internal note added', detail: null };
    }
    case 'ClaimLabelAdded':
    case 'ClaimLabelRemoved': {
      const s = LabelChanged.safeParse(entry.summary);
      const verb = entry.eventType === 'ClaimLabelAdded' ? 'added' : 'removed';
      return { title: s.success ? `Label ${verb}: ${s.data.label}` : `Label ${verb}`, detail: null };
    }
    case 'ClaimMetadataSet': {
      const s = MetadataSet.safeParse(entry.summary);
      if (!s.success) return { title: 'Metadata set', detail: null };
      return {
        title: `Metadata ${s.data.key} set`,
        detail:
          s.data.previous === null || s.data.previous === undefined
            ? `Value: ${s.data.value}`
            : `From ${s.data.previous} to ${s.data.value}`,
      };
    }
    case 'ReturnStarted': {
      const s = ReturnStarted.safeParse(entry.summary);
      if (!s.success) return { title: 'Return started', detail: null };
      return {
        title: `Return ${s.data.code} started`,
        detail:
          s.data.handling === 'store_portal'
            ? "Sent to the store's returns portal"
            : 'Handled here, with a return label',
      };
    }
    case 'ReturnStatusChanged': {
      const s = ReturnMoved.safeParse(entry.summary);
      return s.success
        ? {
            title: `Return ${RETURN_STATUS_LABELS[s.data.to].toLowerCase()} (was ${RETURN_STATUS_LABELS[s.data.from].toLowerCase()})`,
            detail: s.data.note ?? null,
          }
        : { title: 'Return updated', detail: null };
    }
    default:
      return { title: entry.eventType, detail: null };
  }
}

export function actorName(actor: Actor): string {
  // A rule is named with the version that acted: a later edit must not reword what it did.
  if (actor.type === 'rule')
    return `Rule ${actor.name ?? actor.id}${actor.version ? ` (version ${actor.version})` : ''}`;
  if (actor.name) return actor.name;
  if (actor.type === 'customer') return 'Customer';
  if (actor.type === 'system') return 'System';
  if (actor.type === 'api-token') return `API token ${actor.id}`;
  return actor.id;
}

/** The status as of a version, from the history lines alone. */
export function statusAsOf(entries: readonly Entry[], version: number): string | null {
  let status: string | null = null;
  for (const entry of entries)
    if (entry.source === 'claim' && entry.version <= version && entry.status) status = entry.status;
  return status;
}

/**
 * The claim as of a timeline entry: the server's `GET /api/admin/claims/{id}?asOf=<version>` when it
 * answers with that version; until it does, the status the history lines give.
 */
function AsOf({ claim, entries, version }: { claim: AdminClaimDetail; entries: readonly Entry[]; version: number }) {
  const isCurrent = version === claim.version;
  const asOf = useQuery({ ...claimQueries.asOf(claim.id, version), enabled: !isCurrent });
  const snapshot = isCurrent ? claim : asOf.data?.version === version ? asOf.data : null;
  const status = statusAsOf(entries, version);
  return (
    <section className="as-of" aria-labelledby="as-of-title" aria-live="polite">
      <h3 id="as-of-title">
        State as of version {version}
        {isCurrent ? ' (current)' : ''}
      </h3>
      {asOf.isPending && !isCurrent ? <p className="muted">Loading…</p> : null}
      {asOf.isError ? <Alert>The claim as of this version could not be loaded: {asOf.error.message}</Alert> : null}
      {snapshot ? (
        <dl className="facts">
          <Fact term="Status">
            <StatusBadge status={snapshot.status} />
          </Fact>
          <Fact term="Resolutions">
            {summarizeResolutions(snapshot)?.types.map(resolutionTypeLabel).join(', ') ?? 'None'}
          </Fact>
          <Fact term="Messages">{snapshot.messages.length}</Fact>
          <Fact term="Items">{snapshot.items.map((i) => `${i.name} × ${i.quantity}`).join(', ')}</Fact>
        </dl>
      ) : !asOf.isPending || isCurrent ? (
        <>
          <dl className="facts">
            <Fact term="Status">
              {status ? (
                ClaimStatus.safeParse(status).success ? (
                  <StatusBadge status={ClaimStatus.parse(status)} />
                ) : (
                  status
                )
              ) : (
                '—'
              )}
            </Fact>
          </dl>
          <p className="muted">
            The full claim as of an earlier version needs the server's as-of view; this shows the status from the
            history.
          </p>
        </>
      ) : null}
    </section>
  );
}

/** Every event of the claim in order, with actor and time; selecting one shows the claim as of then. */
export function Timeline({
  claim,
  selected,
  onSelect,
}: {
  claim: AdminClaimDetail;
  selected: number | undefined;
  onSelect: (version: number | undefined) => void;
}) {
  const timeline = useQuery({
    ...claimQueries.timeline(claim.id),
    // The history is a read model: poll briefly until it has caught up with the claim's own stream.
    refetchInterval: (query) =>
      (query.state.data?.data.findLast((e) => e.source === 'claim')?.version ?? -1) < claim.version ? 500 : false,
  });
  const entries = timeline.data?.data ?? [];
  const claimEntries = entries.filter((e) => e.source === 'claim');
  return (
    <FoldingCard title="Timeline" titleId="timeline-title" storageKey="claim:timeline-title" defaultOpen>
      {timeline.isError ? <Alert>The timeline could not be loaded: {timeline.error.message}</Alert> : null}
      {timeline.isPending ? <p className="muted">Loading the timeline…</p> : null}
      <ol className="timeline">
        {entries.map((entry) => {
          const { title, detail } = describeEntry(entry, claim);
          // Mail is on a stream of its own: a line to read, not a version of the claim to look at.
          if (entry.source === 'notifications') {
            return (
              <li key={`mail:${entry.version}`} className="timeline-entry timeline-mail">
                <span className="timeline-title">{title}</span>
                <span className="timeline-meta">
                  {actorName(entry.actor)} · <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time>
                </span>
                {detail ? <span className="timeline-detail">{detail}</span> : null}
              </li>
            );
          }
          const isSelected = entry.version === selected;
          return (
            <li key={entry.version} className={isSelected ? 'timeline-entry timeline-selected' : 'timeline-entry'}>
              <button
                type="button"
                className="timeline-button"
                aria-pressed={isSelected}
                onClick={() => onSelect(isSelected ? undefined : entry.version)}
              >
                <span className="timeline-title">{title}</span>
                <span className="timeline-meta">
                  {actorName(entry.actor)} · <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time>{' '}
                  · version {entry.version}
                </span>
                {detail ? <span className="timeline-detail">{detail}</span> : null}
              </button>
            </li>
          );
        })}
      </ol>
      {selected !== undefined && claimEntries.some((e) => e.version === selected) ? (
        <AsOf claim={claim} entries={claimEntries} version={selected} />
      ) : null}
    </FoldingCard>
  );
}
