export * from './export-config.js';
export * from './server.js';
