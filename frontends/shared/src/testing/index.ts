export { startTestFileAfresh } from './isolation';
// Test helpers of the SPAs (`@gatehouse/frontend-shared/testing`): test code only, they import vitest.
export { jsonResponse, stubApi } from './api';
export type { ApiRoutes, Handler } from './api';
export { setUpSpaTests, stubMatchMedia, stubResizeObserver, stubSubtleCrypto } from './dom';
export type { SpaTestOptions } from './dom';
export { FakeAuth } from './fake-auth';
export type { FakeAuthOptions } from './fake-auth';
export { makeUser } from './user';
export { phraseLeaves, placeholderNames } from './phrases';
export type { TestUserOptions } from './user';
