/** Where the console is served; every route below is relative to it. */
export const ADMIN_BASENAME = '/admin';

/** Where users who may not enter the console are sent (the portal home, same origin). */
export const IDENTITY_URL = '/';
