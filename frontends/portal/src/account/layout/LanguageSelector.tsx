import { changeLanguage, DEFAULT_LANGUAGE, LANGUAGE_NAMES, matchLanguage, menuLanguages, useI18nInstance } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import { useId } from 'react';
import { useAccountTranslation } from '../use-account-translation';

/**
 * Toggle buttons, the pressed one being the page's language: English and French as the spec
 * offers, plus the page's language when it is another one (a German browser keeps German, shown
 * pressed). Each name is written in its own language (and marked so), which is how people
 * recognise the language they read.
 */
export function LanguageSelector() {
  const { t, i18n } = useAccountTranslation();
  const instance = useI18nInstance();
  const labelId = useId();
  const current = matchLanguage(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LANGUAGE;
  return (
    <div className="account-language">
      <span id={labelId} className="account-language__label">
        {t('layout.languageLabel')}
      </span>
      <div role="group" aria-labelledby={labelId} className="account-language__choices">
        {menuLanguages(current).map((language) => {
          const pressed = language === current;
          return (
            <Button
              key={language}
              type={pressed ? 'primary' : 'default'}
              aria-pressed={pressed}
              lang={language}
              onClick={() => void changeLanguage(instance, language)}
            >
              {LANGUAGE_NAMES[language]}
            </Button>
          );
        })}
      </div>
    </div>
  );
}
