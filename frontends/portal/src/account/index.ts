export { AccountRoutes, SUPPORT_URL } from './AccountRoutes';
export type { AccountRoutesProps } from './AccountRoutes';
// Lets the portal write `lazy(() => import('./account'))`.
export { AccountRoutes as default } from './AccountRoutes';
