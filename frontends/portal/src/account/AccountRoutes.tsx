import { NotFoundPage } from '@gatehouse/frontend-shared';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { AccountConfigProvider } from './account-config';
import { Loading } from './layout/Loading';
import { LoginPage } from './login/LoginPage';

// The sign-in page is why this area loads, so it comes with it; the reset-link and access-denied
// pages are rarer and load on their own.
const ChangePasswordPage = lazy(() => import('./change-password/ChangePasswordPage'));
const AccessDeniedPage = lazy(() => import('./access-denied/AccessDeniedPage'));

/** The routes below `/account` (mounted by the portal at `account/*`). */
export function AccountRoutes() {
  const { search } = useLocation();
  return (
    <AccountConfigProvider>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route index element={<Navigate to={{ pathname: 'login', search }} replace />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="logout" element={<LoginPage />} />
          <Route path="changePassword" element={<ChangePasswordPage />} />
          <Route path="accessDenied" element={<AccessDeniedPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </AccountConfigProvider>
  );
}
