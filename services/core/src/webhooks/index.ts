export * from './events.js';
export * from './system-log-events.js';
export * from './addresses.js';
export * from './deliverer.js';
