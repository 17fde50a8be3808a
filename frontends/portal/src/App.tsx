import { LocalizedConfigProvider, NotFoundPage, productBasePath } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import { lazy, Suspense } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { PageLoader } from './shell/PageLoader';

// Every area is its own chunk: the sign-in page (the first screen of most visits) loads neither
// oidc-client-ts nor Redux nor the shell, and a signed-in user never loads the sign-in forms.
const AccountRoutes = lazy(() => import('./account').then((module) => ({ default: module.AccountRoutes })));
const AuthCallbackPage = lazy(() => import('./auth/AuthCallbackPage'));
const SignedInApp = lazy(() => import('./shell/SignedInApp'));
const HomePage = lazy(() => import('./home/HomePage'));
const ProfilePage = lazy(() => import('./profile/ProfilePage'));
const RightsPage = lazy(() => import('./rights/RightsPage'));
const DisclaimersPage = lazy(() => import('./disclaimers/DisclaimersPage'));
const ClientsPage = lazy(() => import('./clients/ClientsPage'));
const ServiceManagerPage = lazy(() => import('./service-manager/ServiceManagerPage'));
const CompanySelectPage = lazy(() => import('./profile/companies/CompanySelectPage'));

/** The profile area's pages as the spec lists them under /profile: the same pages, at their own paths. */
const PROFILE_AREA_PAGES = ['rights', 'rigths', 'disclaimers', 'clients', 'service-manager'] as const;

/** Sends `/profile/<page>` to `/<page>`, keeping the query string. */
function ToPage({ page }: { page: (typeof PROFILE_AREA_PAGES)[number] }) {
  const { search } = useLocation();
  return <Navigate to={{ pathname: `/${page}`, search }} replace />;
}

export interface AppProps {
  i18n: I18n;
}

function AppRoutes() {
  // The shared phrases: the portal's own namespace is not loaded yet, nor needed on the sign-in page.
  const { t } = useTranslation();
  return (
    <Suspense fallback={<PageLoader label={t('common.loading')} fullPage />}>
      <Routes>
        <Route path="account/*" element={<AccountRoutes />} />
        <Route path="auth/callback" element={<AuthCallbackPage />} />
        <Route element={<SignedInApp />}>
          <Route index element={<HomePage />} />
          {PROFILE_AREA_PAGES.map((page) => (
            <Route key={page} path={`profile/${page}`} element={<ToPage page={page} />} />
          ))}
          <Route path="profile/*" element={<ProfilePage />} />
          {/* The spec's route and its misspelt twin lead to the same page. */}
          <Route path="rights" element={<RightsPage />} />
          <Route path="rigths" element={<RightsPage />} />
          <Route path="disclaimers" element={<DisclaimersPage />} />
          <Route path="clients" element={<ClientsPage />} />
          <Route path="service-manager" element={<ServiceManagerPage />} />
          {/* "Change company" at the address the other applications link to. */}
          <Route path="home/companies/select" element={<CompanySelectPage />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}

export function App({ i18n }: AppProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <LocalizedConfigProvider>
        <BrowserRouter basename={productBasePath() || '/'}>
          <AppRoutes />
        </BrowserRouter>
      </LocalizedConfigProvider>
    </I18nextProvider>
  );
}
