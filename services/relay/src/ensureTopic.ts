import kafkajs, { type Kafka, type PartitionMetadata } from 'kafkajs';

// Not among the names Node detects in kafkajs's CommonJS exports: taken from the default export.
const { ConfigResourceTypes } = kafkajs;

/** How the claim events topic must be set up; replication comes from configuration (1 locally, 3 in production). */
export interface TopicSettings {
  numPartitions: number;
  replicationFactor: number;
  minInsyncReplicas: number;
  /** The largest record batch the broker accepts on this topic; set explicitly rather than inherited from the broker. */
  maxMessageBytes: number;
}

export const DEFAULT_TOPIC_SETTINGS: TopicSettings = {
  numPartitions: 3,
  replicationFactor: 1,
  minInsyncReplicas: 1,
  maxMessageBytes: 1024 * 1024,
};

/** The topic exists with a durability that contradicts the configuration: publishing to it would promise what it cannot keep. */
export class TopicSettingsError extends Error {
  override readonly name = 'TopicSettingsError';
}

/**
 * What the broker says of an existing topic; `maxMessageBytes` is what the relay's batches must stay below, and
 * `partitions` what its keys are spread over.
 */
export interface TopicDescription {
  partitions: PartitionMetadata[];
  replicationFactor: number;
  minInsyncReplicas: number;
  maxMessageBytes: number;
}

async function describeTopic(admin: ReturnType<Kafka['admin']>, topic: string): Promise<TopicDescription> {
  const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
  const partitions = metadata.topics[0]?.partitions ?? [];
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [
      { type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['min.insync.replicas', 'max.message.bytes'] },
    ],
  });
  const entry = (name: string) => Number(resources[0]?.configEntries.find((e) => e.configName === name)?.configValue);
  return {
    partitions,
    replicationFactor: Math.min(...partitions.map((p) => p.replicas.length)),
    minInsyncReplicas: entry('min.insync.replicas'),
    maxMessageBytes: entry('max.message.bytes'),
  };
}

/**
 * Creates the topic before anyone produces or subscribes (a consumer group joining a topic that
 * auto-creation has not finished making fails with "does not host this topic-partition"), or checks
 * that an existing one is as durable as configured: a topic on fewer replicas, or accepting writes
 * on fewer in-sync replicas, than configured is refused with a TopicSettingsError.
 */
export async function ensureTopic(
  kafka: Kafka,
  topic: string,
  settings: TopicSettings = DEFAULT_TOPIC_SETTINGS,
): Promise<TopicDescription> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = await admin.listTopics();
    if (!existing.includes(topic)) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [
          {
            topic,
            numPartitions: settings.numPartitions,
            replicationFactor: settings.replicationFactor,
            configEntries: [
              { name: 'min.insync.replicas', value: String(settings.minInsyncReplicas) },
              { name: 'max.message.bytes', value: String(settings.maxMessageBytes) },
            ],
          },
        ],
      });
    }
    const found = await describeTopic(admin, topic);
    const problems = [
      found.replicationFactor !== settings.replicationFactor
        ? `replication factor is ${found.replicationFactor}, configured ${settings.replicationFactor} (KAFKA_REPLICATION_FACTOR)`
        : null,
      found.minInsyncReplicas !== settings.minInsyncReplicas
        ? `min.insync.replicas is ${found.minInsyncReplicas}, configured ${settings.minInsyncReplicas} (KAFKA_MIN_INSYNC_REPLICAS)`
        : null,
    ].filter((p): p is string => p !== null);
    if (problems.length > 0) {
      throw new TopicSettingsError(
        `Topic ${topic} contradicts the configuration: ${problems.join('; ')}. Fix the topic (kafka-configs.sh / reassign partitions) or the configuration; the relay will not publish to it.`,
      );
    }
    return found;
  } finally {
    await admin.disconnect();
  }
}
