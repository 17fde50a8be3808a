import { changeLanguage, LANGUAGE_NAMES, type Language } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import { useId } from 'react';
import { useAccountTranslation } from '../use-account-translation';

// The spec offers only English and French here. Each name is written in its own language (and
// marked so), which is how people recognise the language they read.
const CHOICES: readonly Language[] = ['en', 'fr'];

/** Two toggle buttons: the pressed one is the page's language. */
export function LanguageSelector() {
  const { t, i18n } = useAccountTranslation();
  const labelId = useId();
  return (
    <div className="account-language">
      <span id={labelId} className="account-language__label">
        {t('layout.languageLabel')}
      </span>
      <div role="group" aria-labelledby={labelId} className="account-language__choices">
        {CHOICES.map((language) => {
          const current = i18n.language === language;
          return (
            <Button
              key={language}
              type={current ? 'primary' : 'default'}
              aria-pressed={current}
              lang={language}
              onClick={() => void changeLanguage(i18n, language)}
            >
              {LANGUAGE_NAMES[language]}
            </Button>
          );
        })}
      </div>
    </div>
  );
}
