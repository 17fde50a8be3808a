import { NotFoundPage } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, Route, Routes } from 'react-router';
import { AccountPage } from './pages/AccountPage';
import { HomePage } from './pages/HomePage';
import { ProfilePage } from './pages/ProfilePage';

export interface AppProps {
  i18n: I18n;
}

export function App({ i18n }: AppProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <BrowserRouter>
        <Routes>
          <Route index element={<HomePage />} />
          <Route path="account/*" element={<AccountPage />} />
          <Route path="profile/*" element={<ProfilePage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </BrowserRouter>
    </I18nextProvider>
  );
}
