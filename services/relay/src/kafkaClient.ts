import { Kafka, logLevel, type RetryOptions } from 'kafkajs';
import type { Logger } from 'pino';

/**
 * A kafkajs client from `KAFKA_BROKERS` (host:port[,…]) whose log lines go through pino. Its own
 * retries stay short (about 5 s): the relay and the consumers retry in the background for as long
 * as the broker is away, and a stop never waits long on a dead broker.
 */
export function createKafka(
  brokers: string,
  log: Logger,
  clientId = 'claims',
  retry: RetryOptions = { initialRetryTime: 200, retries: 5, maxRetryTime: 2_000 },
): Kafka {
  process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
  return new Kafka({
    clientId,
    brokers: brokers
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    logLevel: logLevel.WARN,
    retry,
    logCreator:
      () =>
      ({ level, log: entry }) => {
        const { message, ...extra } = entry;
        if (level <= logLevel.ERROR) log.error(extra, message);
        else log.warn(extra, message);
      },
  });
}
