export * from './mailer.js';
export * from './templates.js';
