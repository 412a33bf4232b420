import { sql, type Kysely } from 'kysely';
import kafkajs, { type Kafka, type Message, type PartitionMetadata, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { CLAIM_EVENTS_TOPIC } from '@claims/contracts';
import {
  catchUpCheckpoint,
  loadCheckpoint,
  readAll,
  startPollingLoop,
  storeCheckpoint,
  toEnvelope,
  tryLead,
  type Database,
  type EventStoreTables,
  type Leadership,
  type RecordedEvent,
} from '@claims/event-store';
import { DEFAULT_TOPIC_SETTINGS, ensureTopic, TopicSettingsError, type TopicSettings } from './ensureTopic.js';

export const RELAY_CHECKPOINT = 'relay:kafka';
const LEADERSHIP_LOCK = 'claims-relay';

/** What health reports of the relay: `refused` is for good (the topic contradicts the configuration). */
export type RelayStatus = { state: 'connecting' | 'publishing' } | { state: 'failing' | 'refused'; reason: string };

export interface Relay {
  wake(): void;
  /** Resolves once every event committed before the call has been published. */
  catchUp(): Promise<void>;
  status(): RelayStatus;
  stop(): Promise<void>;
}

export interface RelayOptions {
  topic?: string;
  pollMs?: number;
  settings?: TopicSettings;
}

interface Outgoing {
  event: RecordedEvent;
  message: Message;
  bytes: number;
}

/** Per record, what kafkajs adds around key, value and headers (lengths, offsets, timestamps), rounded up. */
const RECORD_OVERHEAD = 64;
/** Broker answers that no retry can change: the event is quarantined rather than retried for ever. */
const REFUSALS = new Set([
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_RECORD',
  'CORRUPT_MESSAGE',
  'POLICY_VIOLATION',
]);

/** The broker's error type (a kafkajs `type`) in the error or its causes, when it is one of `types`. */
function brokerAnswerIn(error: unknown, types: ReadonlySet<string>): string | null {
  for (let e: unknown = error; typeof e === 'object' && e !== null; e = (e as { cause?: unknown }).cause) {
    const type = (e as { type?: unknown }).type;
    if (typeof type === 'string' && types.has(type)) return type;
  }
  return null;
}

function outgoing(event: RecordedEvent): Outgoing {
  const message = {
    key: event.streamId,
    value: JSON.stringify(toEnvelope(event)),
    headers: { 'event-type': event.type },
  };
  const bytes =
    Buffer.byteLength(message.value) + Buffer.byteLength(message.key) + Buffer.byteLength(event.type) + RECORD_OVERHEAD;
  return { event, message, bytes };
}

/** Consecutive runs of at most `maxBytes` (one message alone may exceed it: the broker has the last word). */
function chunksOf(items: readonly Outgoing[], maxBytes: number): Outgoing[][] {
  const chunks: Outgoing[][] = [];
  let current: Outgoing[] = [];
  let size = 0;
  for (const item of items) {
    if (current.length > 0 && size + item.bytes > maxBytes) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += item.bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Where the relay publishes: the batch size its sends stay below, and the partition of a stream's events. */
interface PublishTarget {
  maxBatchBytes: number;
  partitionOf(message: Message): number;
}

/**
 * The partition kafkajs' own (Java-compatible) partitioner gives a message on the topic's partitions, so a stream
 * keeps the partition it had before the relay named partitions itself.
 */
function partitionerOf(topic: string, partitionMetadata: PartitionMetadata[]): (message: Message) => number {
  const partitioner = kafkajs.Partitioners.DefaultPartitioner();
  return (message) => partitioner({ topic, partitionMetadata, message });
}

/** The chunk's items by partition, each message naming its partition, in the chunk's order within each. */
function byPartition(chunk: readonly Outgoing[], partitionOf: (message: Message) => number): Map<number, Outgoing[]> {
  const groups = new Map<number, Outgoing[]>();
  for (const item of chunk) {
    const partition = partitionOf(item.message);
    const placed = { ...item, message: { ...item.message, partition } };
    const group = groups.get(partition);
    if (group) group.push(placed);
    else groups.set(partition, [placed]);
  }
  return groups;
}

/** Broker answers about the producer's own idempotence state rather than the records: only a new producer id clears them. */
const PRODUCER_STATE_ERRORS = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
  'PRODUCER_FENCED',
]);

const positionOf = (event: RecordedEvent) => ({
  transactionId: event.transactionId,
  globalPosition: event.globalPosition,
});

/**
 * Publishes the event store to Kafka in (transaction, position) order, key = stream id, so each
 * stream keeps its order within its partition. Sends stay below the topic's `max.message.bytes`; an
 * event the broker refuses for good is quarantined (relay_quarantine, an error log) and the relay
 * moves on. The checkpoint moves only after the broker has acknowledged (or the quarantine row is
 * written), so a crash republishes rather than loses (consumers skip what they have applied).
 */
async function publishPending(
  db: Kysely<EventStoreTables>,
  producer: Producer,
  topic: string,
  target: PublishTarget,
  log: Logger,
): Promise<number> {
  let position = await loadCheckpoint(db, RELAY_CHECKPOINT);
  let published = 0;
  const send = (items: readonly Outgoing[]) =>
    producer.send({ topic, acks: -1, messages: items.map((o) => o.message) });
  async function quarantine(item: Outgoing, refusal: string, error: unknown): Promise<void> {
    const { event } = item;
    log.error(
      {
        err: error,
        eventId: event.eventId,
        streamId: event.streamId,
        type: event.type,
        bytes: item.bytes,
        refusal,
        alert: 'relay_quarantine',
      },
      'the broker refused an event for good; quarantined in relay_quarantine, the relay moves on',
    );
    await sql`
      insert into relay_quarantine (event_id, global_position, stream_id, type, bytes, error)
      values (${event.eventId}::uuid, ${event.globalPosition}, ${event.streamId}, ${event.type}, ${item.bytes}, ${`${refusal}: ${String(error)}`})
      on conflict (event_id) do nothing`.execute(db);
  }
  /** Items of one partition: the broker's refusal of the send is narrowed down to the item it refuses. */
  async function publishToPartition(items: readonly Outgoing[]): Promise<void> {
    try {
      await send(items);
    } catch (error) {
      const refusal = brokerAnswerIn(error, REFUSALS);
      if (!refusal) throw error;
      if (items.length === 1) return quarantine(items[0]!, refusal, error);
      for (const item of items) await publishToPartition([item]);
    }
  }
  /**
   * One send per partition. kafkajs 2.2.4 keeps, across the retries of one send, the answers of the brokers that have
   * already answered; when a partition's leader dies and its partition moves to one of them, the retry never sends
   * that partition's messages and the send still resolves (tulios/kafkajs#1303, unmerged fix #1798): the broker-loss
   * test lost two events that way. A send to one partition has one leader at a time.
   */
  const publish = (chunk: readonly Outgoing[]) =>
    Promise.all([...byPartition(chunk, target.partitionOf).values()].map(publishToPartition));
  for (;;) {
    const page = await readAll(db, position, 500);
    if (page.events.length === 0) return published;
    for (const chunk of chunksOf(page.events.map(outgoing), target.maxBatchBytes)) {
      await publish(chunk);
      position = positionOf(chunk.at(-1)!.event);
      await storeCheckpoint(db, RELAY_CHECKPOINT, position);
      published += chunk.length;
    }
  }
}

/**
 * Starts the relay without waiting for Kafka: it connects (and checks the topic) in the background
 * and keeps retrying while the broker is away. Only the instance holding the advisory lock publishes.
 */
export function startRelay(database: Database, kafka: Kafka, log: Logger, options: RelayOptions = {}): Relay {
  const topic = options.topic ?? CLAIM_EVENTS_TOPIC;
  const settings = options.settings ?? DEFAULT_TOPIC_SETTINGS;
  const newProducer = () => kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  let producer = newProducer();
  let target: PublishTarget | null = null;
  let leadership: Leadership | null = null;
  let stopped = false;
  let status: RelayStatus = { state: 'connecting' };

  async function connect(): Promise<PublishTarget> {
    const described = await ensureTopic(kafka, topic, settings);
    await producer.connect();
    return {
      // A tenth for the record batch's own header.
      maxBatchBytes: Math.floor(described.maxMessageBytes * 0.9),
      partitionOf: partitionerOf(topic, described.partitions),
    };
  }

  async function step(): Promise<void> {
    if (stopped || status.state === 'refused') return;
    target ??= await connect();
    if (!leadership) {
      leadership = await tryLead(database, LEADERSHIP_LOCK);
      if (!leadership) return;
      log.info('relay leads: publishing to %s', topic);
      void leadership.lost.then(() => {
        if (!stopped) log.warn('relay lost its lock; will try to lead again');
        leadership = null;
      });
    }
    let count: number;
    try {
      count = await publishPending(database.db, producer, topic, target, log);
    } catch (error) {
      if (brokerAnswerIn(error, PRODUCER_STATE_ERRORS)) await replaceProducer(error);
      throw error;
    }
    status = { state: 'publishing' };
    if (count > 0) log.debug({ count }, 'relay published');
  }

  /**
   * The broker forgot or no longer accepts this producer's id and sequence (after its restart, or a send
   * kafkajs gave up on): every later send would fail the same way, a stall until the process restarts. A new
   * producer gets a new id; the checkpoint never moved past an unacknowledged send, so it republishes from
   * there and the consumers skip what they already applied.
   */
  async function replaceProducer(error: unknown): Promise<void> {
    log.warn({ err: error }, "the broker refused the relay producer's sequence; starting a new producer");
    const old = producer;
    producer = newProducer();
    target = null;
    await old.disconnect().catch(() => undefined);
  }

  const loop = startPollingLoop(step, options.pollMs ?? 200, (error) => {
    if (error instanceof TopicSettingsError) {
      status = { state: 'refused', reason: error.message };
      log.fatal({ err: error }, 'relay refuses to publish');
      return;
    }
    status = { state: 'failing', reason: error instanceof Error ? error.message : String(error) };
    log.error({ err: error }, 'relay step failed; retrying');
  });

  return {
    wake: loop.wake,
    /** Until everything committed before the call is published: readAll's horizon may trail a transaction open elsewhere. */
    async catchUp() {
      const giveUpAt = Date.now() + 30_000;
      await catchUpCheckpoint(database.db, loop, RELAY_CHECKPOINT, {
        givenUp: () => stopped || status.state !== 'publishing' || Date.now() >= giveUpAt,
        pauseMs: () => 50,
      });
    },
    status: () => status,
    async stop() {
      stopped = true;
      await loop.stop();
      await leadership?.release();
      await producer.disconnect();
    },
  };
}
