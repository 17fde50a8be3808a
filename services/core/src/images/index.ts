// `@gatehouse/core/images`: uploaded pictures judged by their content and encoded again (avatars,
// application icons). Apart from the main entry, so that only what takes uploads loads sharp.
export * from './raster.js';
export * from './refusal.js';
