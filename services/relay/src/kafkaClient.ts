import { Kafka, logLevel } from 'kafkajs';
import type { Logger } from 'pino';

/** A kafkajs client from `KAFKA_BROKERS` (host:port[,…]) whose log lines go through pino. */
export function createKafka(brokers: string, log: Logger, clientId = 'claims'): Kafka {
  process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
  return new Kafka({
    clientId,
    brokers: brokers.split(',').map((b) => b.trim()).filter(Boolean),
    logLevel: logLevel.WARN,
    retry: { initialRetryTime: 200, retries: 8 },
    logCreator: () => ({ level, log: entry }) => {
      const { message, ...extra } = entry;
      if (level <= logLevel.ERROR) log.error(extra, message);
      else log.warn(extra, message);
    },
  });
}
