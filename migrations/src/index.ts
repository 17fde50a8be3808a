import { InitialSchema1763769600000 } from './1763769600000-initial-schema.js';
import { SignInLockout1763856000000 } from './1763856000000-sign-in-lockout.js';

/** Every migration, oldest first. A landed migration is never edited: add a new one. */
export const migrations = [InitialSchema1763769600000, SignInLockout1763856000000];
