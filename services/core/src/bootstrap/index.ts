export * from './apply.js';
export * from './schema.js';
