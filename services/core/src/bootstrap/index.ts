export * from './apply.js';
export * from './export.js';
export * from './schema.js';
