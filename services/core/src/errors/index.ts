export * from './app-error.js';
export * from './database-errors.js';
