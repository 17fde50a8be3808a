import { LocalizedConfigProvider, NotFoundPage } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import { lazy, Suspense } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrowserRouter, Route, Routes } from 'react-router';
import { PageLoader } from './shell/PageLoader';

// Every area is its own chunk: the sign-in page (the first screen of most visits) loads neither
// oidc-client-ts nor Redux nor the shell, and a signed-in user never loads the sign-in forms.
const AccountRoutes = lazy(() => import('./account').then((module) => ({ default: module.AccountRoutes })));
const AuthCallbackPage = lazy(() => import('./auth/AuthCallbackPage'));
const SignedInApp = lazy(() => import('./shell/SignedInApp'));
const HomePage = lazy(() => import('./home/HomePage'));
const ProfilePage = lazy(() => import('./pages/ProfilePage'));

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
          <Route path="profile/*" element={<ProfilePage />} />
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
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </LocalizedConfigProvider>
    </I18nextProvider>
  );
}
