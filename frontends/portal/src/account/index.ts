export { AccountRoutes } from './AccountRoutes';
// Lets the portal write `lazy(() => import('./account'))`.
export { AccountRoutes as default } from './AccountRoutes';
