import type { Kafka } from 'kafkajs';

/**
 * Creates the topic before anyone produces or subscribes: a consumer group joining a topic that
 * auto-creation has not finished making fails with "does not host this topic-partition".
 */
export async function ensureTopic(kafka: Kafka, topic: string, numPartitions = 3): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = await admin.listTopics();
    if (!existing.includes(topic)) {
      await admin.createTopics({ topics: [{ topic, numPartitions, replicationFactor: 1 }], waitForLeaders: true });
    }
  } finally {
    await admin.disconnect();
  }
}
