export * from './definition.js';
export * from './loader.js';
