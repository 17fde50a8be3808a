// The metrics live in ../metrics; the HTTP layer (request durations, error counts) reads them from here.
export * from '../metrics/index.js';
