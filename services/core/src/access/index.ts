// Tenant access: who holds which roles where, who may change that, and the one way it changes.
export * from './facts.js';
export * from './grants.js';
export * from './policy.js';
export * from './repository.js';
