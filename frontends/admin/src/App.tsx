import { LocalizedConfigProvider, NotFoundPage } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import { lazy, Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, Route, Routes } from 'react-router';
import { RequirePage } from './auth/RequirePage';
import { ADMIN_BASENAME } from './routes';
import type { SignedInAppProps } from './shell/SignedInApp';
import { BareSplash } from './shell/Splash';

export { ADMIN_BASENAME };

// The signed-in console (oidc-client-ts, Redux, the layout) and each area are chunks of their
// own: the callback and not-found pages need none of it, and a page loads only its own code.
const SignedInApp = lazy(() => import('./shell/SignedInApp'));
const AuthCallbackPage = lazy(() => import('./auth/AuthCallbackPage'));
const DashboardPage = lazy(() => import('./dashboard/DashboardPage').then((module) => ({ default: module.DashboardPage })));
const directory = () => import('./features/directory');
const UsersPage = lazy(() => directory().then((module) => ({ default: module.UsersPage })));
const UserDetailPage = lazy(() => directory().then((module) => ({ default: module.UserDetailPage })));
const GroupsPage = lazy(() => directory().then((module) => ({ default: module.GroupsPage })));
const GroupDetailPage = lazy(() => directory().then((module) => ({ default: module.GroupDetailPage })));
const AreasPage = lazy(() => directory().then((module) => ({ default: module.AreasPage })));
const RightsRequestsPage = lazy(() => import('./features/rights-requests/RightsRequestsPage'));
const SecurityConfigPage = lazy(() => import('./features/security-config/SecurityConfigPage'));
const InspectorPage = lazy(() => import('./features/inspector/InspectorPage'));
const ApplicationsPage = lazy(() => import('./features/applications/ApplicationsPage'));
const ApplicationDetailPage = lazy(() => import('./features/applications/ApplicationDetailPage'));
const WebhooksPage = lazy(() => import('./features/webhooks/WebhooksPage'));
const WebhookDetailPage = lazy(() => import('./features/webhooks/WebhookDetailPage'));
const RoleDetailPage = lazy(() => import('./features/applications/roles/RoleDetailPage'));
const PatsPage = lazy(() => import('./features/pats/PatsPage'));
const ControlPatsPage = lazy(() => import('./features/pats/ControlPatsPage'));
const TenantsPage = lazy(() => import('./features/tenants/TenantsPage'));
const TenantDetailPage = lazy(() => import('./features/tenants/TenantDetailPage'));
const PermissionsPage = lazy(() => import('./features/permissions/PermissionsPage'));
const GroupPermissionsPage = lazy(() => import('./features/permissions/GroupPermissionsPage'));
const UserPermissionsPage = lazy(() => import('./features/permissions/UserPermissionsPage'));
const MfaConfigurationPage = lazy(() => import('./features/mfa/MfaConfigurationPage'));
const LogsPage = lazy(() => import('./features/logs/LogsPage'));

export interface AppProps extends SignedInAppProps {
  i18n: I18n;
  /** Tests hand in the callback's session too. */
  loadForCallback?: () => Promise<{ auth: { completeSignIn(url: string): Promise<string> } }>;
}

/** The console's routes, relative to /admin (spec: section 2). */
export function AdminRoutes({ loadForCallback, ...signedIn }: Omit<AppProps, 'i18n'>) {
  return (
    <Suspense fallback={<BareSplash />}>
      <Routes>
        <Route path="auth/callback" element={<AuthCallbackPage load={loadForCallback} />} />
        <Route element={<SignedInApp {...signedIn} />}>
          <Route index element={<DashboardPage />} />
          {/* Every page below opens for the roles the admin API answers its call (auth/console-access.ts). */}
          <Route element={<RequirePage />}>
            <Route path="users" element={<UsersPage />} />
            <Route path="users/:id" element={<UserDetailPage />} />
            <Route path="groups" element={<GroupsPage />} />
            <Route path="groups/:id" element={<GroupDetailPage />} />
            <Route path="areas" element={<AreasPage />} />
            <Route path="rightsRequests" element={<RightsRequestsPage />} />
            <Route path="applications" element={<ApplicationsPage />} />
            <Route path="applications/:applicationId" element={<ApplicationDetailPage />} />
            <Route path="applications/:applicationId/:tab" element={<ApplicationDetailPage />} />
            <Route path="applications/:applicationId/roles/:id" element={<RoleDetailPage />} />
            <Route path="applications/:applicationId/users/:id" element={<UserDetailPage />} />
            <Route path="tenants" element={<TenantsPage />} />
            <Route path="tenants/:id" element={<TenantDetailPage />} />
            <Route path="permissions" element={<PermissionsPage />} />
            <Route path="permissions/users/check" element={<UserPermissionsPage />} />
            <Route path="permissions/:identityId" element={<GroupPermissionsPage />} />
            <Route path="logs" element={<LogsPage />} />
            <Route path="pats" element={<PatsPage />} />
            <Route path="control-pats" element={<ControlPatsPage />} />
            <Route path="inspector" element={<InspectorPage />} />
            <Route path="twomodeauth" element={<MfaConfigurationPage />} />
            <Route path="webhooks" element={<WebhooksPage />} />
            <Route path="webhooks/:id" element={<WebhookDetailPage />} />
            <Route path="securityConfig" element={<SecurityConfigPage />} />
          </Route>
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}

export function App({ i18n, ...routes }: AppProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <LocalizedConfigProvider>
        <BrowserRouter basename={ADMIN_BASENAME}>
          <AdminRoutes {...routes} />
        </BrowserRouter>
      </LocalizedConfigProvider>
    </I18nextProvider>
  );
}
