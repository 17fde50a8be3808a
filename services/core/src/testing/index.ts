export * from './context.js';
export * from './database.js';
export * from './factories.js';
export * from './abuse.js';
export * from './images.js';
export * from './dpop.js';
