export * from './mailer.js';
export * from './templates.js';
export * from './factor-changes.js';
