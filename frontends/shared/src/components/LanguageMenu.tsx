import GlobalOutlined from '@ant-design/icons/GlobalOutlined';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../i18n/create-i18n';
import { DEFAULT_LANGUAGE, LANGUAGE_NAMES, MENU_LANGUAGES, isSupportedLanguage, matchLanguage, menuLanguages, type Language } from '../i18n/languages';
import { useI18nInstance } from '../i18n/use-i18n-instance';

export interface LanguageMenuProps {
  /** The word "Language" in the interface language; the button is named "<label>: <current language>". */
  label: string;
  /**
   * The languages offered (default: English and French, as the spec's menu); the current language
   * is added when it is another one, so it is always there and selected.
   */
  languages?: readonly Language[];
  /** Shows the globe only, without the current language's name. */
  compact?: boolean;
}

/** Switches the interface language (stored as the preference); each language is named in itself. */
export function LanguageMenu({ label, languages = MENU_LANGUAGES, compact = false }: LanguageMenuProps) {
  const { i18n } = useTranslation();
  const instance = useI18nInstance();
  const current = matchLanguage(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LANGUAGE;

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: menuLanguages(current, languages).map((language) => ({
          key: language,
          label: <span lang={language}>{LANGUAGE_NAMES[language]}</span>,
        })),
        onClick: ({ key }) => {
          if (isSupportedLanguage(key)) void changeLanguage(instance, key);
        },
      }}
    >
      <Button type="text" icon={<GlobalOutlined aria-hidden />} aria-label={`${label}: ${LANGUAGE_NAMES[current]}`}>
        {!compact && <span lang={current}>{LANGUAGE_NAMES[current]}</span>}
      </Button>
    </Dropdown>
  );
}
