import type { i18n as I18n } from 'i18next';
import { useCallback, useContext, useSyncExternalStore } from 'react';
import { I18nContext } from 'react-i18next';
import { productPath } from '../base-path';
import { detectLanguage, matchLanguage, type Language } from '../i18n/languages';
import { resources } from '../i18n/resources';
import './NotFoundPage.css';

const noSubscription = () => undefined;

/** The language of the i18n provider around the page, following its changes; undefined without one. */
function useProviderLanguage(): string | undefined {
  const instance = (useContext(I18nContext) as { i18n?: I18n } | undefined)?.i18n;
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!instance) return noSubscription;
      instance.on('languageChanged', onChange);
      return () => instance.off('languageChanged', onChange);
    },
    [instance],
  );
  return useSyncExternalStore(subscribe, () => instance?.resolvedLanguage ?? instance?.language);
}

/**
 * The page's language: the i18n provider's; without one (the page also renders before or outside
 * an app), the document's `lang`, else the stored preference or the browser's language, else
 * French, the spec's default.
 */
function notFoundLanguage(fromProvider: string | undefined): Language {
  const fromDocument = typeof document === 'undefined' ? undefined : document.documentElement.lang;
  return matchLanguage(fromProvider) ?? matchLanguage(fromDocument) ?? detectLanguage();
}

/** The spec's not-found page: the page does not exist or was deleted, and a way back home. */
export function NotFoundPage() {
  const language = notFoundLanguage(useProviderLanguage());
  // Read from the phrase tables themselves, which need no i18n instance.
  const text = resources[language].translation.common.notFoundPage;
  return (
    <main className="gh-not-found" lang={language} aria-labelledby="gh-not-found-title">
      <div className="gh-not-found__card">
        <p className="gh-not-found__code" aria-hidden="true">
          404
        </p>
        <h1 id="gh-not-found-title" className="gh-not-found__title">
          {text.title}
        </h1>
        <p className="gh-not-found__body">{text.body}</p>
        {/* A plain link, not a router link: "/" is the portal home even from the admin app. */}
        <a className="gh-not-found__action" href={productPath('/')}>
          {text.action}
        </a>
      </div>
    </main>
  );
}
