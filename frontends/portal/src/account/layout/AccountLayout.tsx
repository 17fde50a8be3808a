import Button from 'antd/es/button';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useSupportUrl } from '../account-config';
import { useAccountTranslation } from '../use-account-translation';
import './account.css';
import { LanguageSelector } from './LanguageSelector';

export interface AccountLayoutProps {
  /** The card's content: the sign-in steps, the new-password form, the access-denied notice. */
  children: ReactNode;
}

// The terms (and antd's Modal) load when first asked for, not with the sign-in page.
const TermsModal = lazy(() => import('./TermsModal'));

/**
 * Left: what the portal is and the language; right: the card; below: help and terms. The help
 * link, "Problems to access? Contact Us!", shows once the configuration names its address.
 */
export function AccountLayout({ children }: AccountLayoutProps) {
  const { t } = useAccountTranslation();
  const supportUrl = useSupportUrl();
  const [termsOpen, setTermsOpen] = useState(false);
  // Stays mounted once opened, so that closing can animate.
  const [termsLoaded, setTermsLoaded] = useState(false);
  return (
    <div className="account-page">
      <main className="account-page__main">
        <section className="account-page__intro" aria-labelledby="account-intro-title">
          <h1 id="account-intro-title" className="account-page__title">
            {t('layout.introTitle')}
          </h1>
          <p className="account-page__text">{t('layout.intro')}</p>
          <LanguageSelector />
        </section>
        <div className="account-page__card">{children}</div>
      </main>
      <footer className="account-page__footer">
        {supportUrl ? (
          <a href={supportUrl} target="_blank" rel="noopener noreferrer">
            {t('footer.contact')}
            <span className="account-visually-hidden"> {t('footer.newTab')}</span>
          </a>
        ) : null}
        <Button type="link" className="account-page__footer-button" onClick={() => {
            setTermsLoaded(true);
            setTermsOpen(true);
          }}
        >
          {t('footer.terms')}
        </Button>
      </footer>
      {termsLoaded ? (
        <Suspense fallback={null}>
          <TermsModal open={termsOpen} onClose={() => setTermsOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
