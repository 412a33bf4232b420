export * from './runtime.js';
export * from './config.js';
export * from './context.js';
