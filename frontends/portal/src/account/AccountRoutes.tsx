import { NotFoundPage } from '@gatehouse/frontend-shared';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Loading } from './layout/Loading';
import { LoginPage } from './login/LoginPage';

// The sign-in page is why this area loads, so it comes with it; the reset-link and access-denied
// pages are rarer and load on their own.
const ChangePasswordPage = lazy(() => import('./change-password/ChangePasswordPage'));
const AccessDeniedPage = lazy(() => import('./access-denied/AccessDeniedPage'));

/**
 * Where "Problems to access? Contact Us!" leads. Empty: the link is not shown until a deployment
 * names its support page (through `supportUrl`).
 */
export const SUPPORT_URL = '';

export interface AccountRoutesProps {
  supportUrl?: string;
}

/** The routes below `/account` (mounted by the portal at `account/*`). */
export function AccountRoutes({ supportUrl = SUPPORT_URL }: AccountRoutesProps) {
  const { search } = useLocation();
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route index element={<Navigate to={{ pathname: 'login', search }} replace />} />
        <Route path="login" element={<LoginPage supportUrl={supportUrl} />} />
        <Route path="logout" element={<LoginPage supportUrl={supportUrl} />} />
        <Route path="changePassword" element={<ChangePasswordPage supportUrl={supportUrl} />} />
        <Route path="accessDenied" element={<AccessDeniedPage supportUrl={supportUrl} />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
