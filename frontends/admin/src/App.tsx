import { NotFoundPage } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, Route, Routes } from 'react-router';
import { DashboardPage } from './pages/DashboardPage';

export const ADMIN_BASENAME = '/admin';

export interface AppProps {
  i18n: I18n;
}

export function App({ i18n }: AppProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <BrowserRouter basename={ADMIN_BASENAME}>
        <Routes>
          <Route index element={<DashboardPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </BrowserRouter>
    </I18nextProvider>
  );
}
