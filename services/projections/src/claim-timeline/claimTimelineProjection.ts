import { readerOf, handling } from '@claims/contracts';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection, type ProjectedEvent } from '../runtime/projection.js';
import { recordset } from '../runtime/bulkRows.js';

const migrations: Record<string, Migration> = {
  '0300_claim_timeline': sqlMigration(
    sql`
      create table claim_timeline (
        claim_id uuid not null,
        stream_version bigint not null,
        global_position bigint not null,
        event_type text not null,
        status text,
        actor jsonb not null,
        summary jsonb not null,
        occurred_at timestamptz not null,
        primary key (claim_id, stream_version)
      )`,
  ),
  // A claim's mail, from its own stream (`claim-notifications:<claim id>`): merged into the history by the query.
  '1610_claim_timeline_notifications': sqlMigration(
    sql`
      create table claim_timeline_notifications (
        claim_id uuid not null,
        stream_version bigint not null,
        global_position bigint not null,
        event_type text not null,
        actor jsonb not null,
        summary jsonb not null,
        occurred_at timestamptz not null,
        primary key (claim_id, stream_version)
      )`,
  ),
  // The reversals recorded before the projection handled them (where the event store shares the database), each a line
  // as applyBatch writes it; applying the event afterwards adds nothing (same key).
  '2620_claim_timeline_reversals': sqlMigration(
    sql`
      do $$ begin
        if to_regclass('events') is not null then
          insert into claim_timeline (claim_id, stream_version, global_position, event_type, status, actor, summary, occurred_at)
          select stream_id::uuid, stream_version, global_position, type, null, metadata->'actor',
            jsonb_build_object('reason', data->'reason', 'resolutionIds', (
              select jsonb_agg(l.value->'resolutionId' order by l.n) from jsonb_array_elements(data->'lines') with ordinality l(value, n))),
            occurred_at
          from events where type = 'ClaimResolutionReversed'
          on conflict do nothing;
        end if;
      end $$`,
  ),
};

type MailEvent = ProjectedEvent<'ClaimNotificationSent' | 'ClaimNotificationFailed'>;

/** What a mail line says: to whom, about what, which try, and (failed) why and what happens next. */
function summariseMail(event: MailEvent): Record<string, unknown> {
  const { kind, to, subject, memberId, attempt } = event.data;
  const base = { kind, recipient: memberId ? 'team' : 'customer', to: to ?? null, subject: subject ?? null, attempt };
  return event.type === 'ClaimNotificationSent'
    ? { ...base, sent: true }
    : { ...base, sent: false, error: event.data.error, nextAttemptAt: event.data.nextAttemptAt ?? null };
}

/** What a history line says about an event, beyond who and when. */
function summarise(event: Exclude<ProjectedEvent<(typeof claimTimelineProjection.handles)[number]>, MailEvent>): {
  status: string | null;
  summary: Record<string, unknown>;
} {
  switch (event.type) {
    case 'ClaimFiled':
      return {
        status: 'NEW',
        summary: {
          claimType: event.data.claimType,
          items: event.data.items.length,
          desiredMethod: event.data.desiredMethod,
        },
      };
    case 'ClaimStatusChanged':
      return {
        status: event.data.to,
        summary: {
          from: event.data.from,
          to: event.data.to,
          note: event.data.note,
          ...(event.data.reason ? { reason: event.data.reason } : {}),
        },
      };
    case 'ClaimResolved':
      return {
        status: event.data.status,
        // The lines' ids: the desk shows each line's amount (and a credit's bonus) from the claim it has loaded.
        summary: {
          outcome: event.data.outcome,
          resolutionTypes: [...new Set(event.data.resolutions.map((r) => r.resolutionType))],
          resolutionIds: event.data.resolutions.map((r) => r.id),
        },
      };
    // Its own line even when the claim keeps its status (a decision on some items taken back); a claim that was decided
    // also gets the ClaimStatusChanged back to OPEN that follows it.
    case 'ClaimResolutionReversed':
      return {
        status: null,
        summary: { reason: event.data.reason, resolutionIds: event.data.lines.map((l) => l.resolutionId) },
      };
    case 'ClaimMessageSent':
      return { status: null, summary: { senderType: event.data.senderType, senderName: event.data.senderName } };
    case 'ClaimReviewed':
      return { status: null, summary: { rating: event.data.rating } };
    // A note's text stays out of the history (readable by anyone with claim:read): `GET …/notes` needs claim-note:read.
    case 'ClaimNoteAdded':
      return { status: null, summary: { noteId: event.data.noteId, author: event.data.author.name } };
    case 'ClaimLabelAdded':
    case 'ClaimLabelRemoved':
      return { status: null, summary: { label: event.data.label } };
    case 'ClaimMetadataSet':
      return { status: null, summary: { key: event.data.key, value: event.data.value, previous: event.data.previous } };
    case 'ReturnStarted':
      return {
        status: null,
        summary: {
          returnId: event.data.returnId,
          code: event.data.code,
          handling: event.data.handling,
          returnStatus: event.data.status,
          reason: event.data.reason,
        },
      };
    case 'ReturnStatusChanged':
      return {
        status: null,
        summary: { returnId: event.data.returnId, from: event.data.from, to: event.data.to, note: event.data.note },
      };
  }
}

/** Every event of a claim as a history line, with actor and time, and every mail about it (sent or failed). */
export const claimTimelineProjection = defineProjection({
  name: 'claim-timeline',
  ...readerOf(['claim', 'claim-notifications'], {
    ClaimFiled: 'handle',
    ClaimStatusChanged: 'handle',
    ClaimAssigned: 'ignore',
    ClaimNotificationSent: 'handle',
    ClaimNotificationFailed: 'handle',
    ...handling('decisions', 'conversation', 'deskMarks', 'returns'),
  }),
  migrations,
  tables: ['claim_timeline', 'claim_timeline_notifications'],
  async applyBatch(trx, events) {
    const lines: object[] = [];
    const mail: object[] = [];
    for (const event of events) {
      const line = {
        stream_version: event.streamVersion,
        global_position: event.globalPosition,
        event_type: event.type,
        actor: event.metadata.actor,
        occurred_at: event.occurredAt,
      };
      if (event.type === 'ClaimNotificationSent' || event.type === 'ClaimNotificationFailed') {
        mail.push({ ...line, claim_id: event.data.claimId, summary: summariseMail(event) });
      } else {
        lines.push({ ...line, claim_id: event.streamId, ...summarise(event) });
      }
    }
    const columns =
      'claim_id uuid, stream_version bigint, global_position bigint, event_type text, actor jsonb, summary jsonb, occurred_at timestamptz';
    if (mail.length > 0) {
      await sql`
        insert into claim_timeline_notifications (claim_id, stream_version, global_position, event_type, actor, summary, occurred_at)
        select claim_id, stream_version, global_position, event_type, actor, summary, occurred_at from ${recordset(mail, columns)}
        on conflict do nothing`.execute(trx);
    }
    if (lines.length > 0) {
      await sql`
        insert into claim_timeline (claim_id, stream_version, global_position, event_type, status, actor, summary, occurred_at)
        select claim_id, stream_version, global_position, event_type, status, actor, summary, occurred_at from ${recordset(lines, `${columns}, status text`)}
        on conflict do nothing`.execute(trx);
    }
  },
});
