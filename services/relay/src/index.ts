export * from './relay.js';
export * from './kafkaClient.js';
export * from './ensureTopic.js';
export * from './relayMigrations.js';
export * from './quarantine.js';
