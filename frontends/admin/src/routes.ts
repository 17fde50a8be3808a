import { productBasePath } from '@gatehouse/frontend-shared';

/** Where the console is served (under the product's base path); every route below is relative to it. */
export const ADMIN_BASENAME = `${productBasePath()}/admin`;

/** Where users who may not enter the console are sent (the portal home, same origin). */
export const IDENTITY_URL = `${productBasePath()}/`;
