export * from './relay.js';
export * from './kafkaClient.js';
