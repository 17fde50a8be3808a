import { InitialSchema1763769600000 } from './1763769600000-initial-schema.js';

/** Every migration, oldest first. A landed migration is never edited: add a new one. */
export const migrations = [InitialSchema1763769600000];
