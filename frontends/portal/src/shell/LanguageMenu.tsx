import GlobalOutlined from '@ant-design/icons/GlobalOutlined';
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_NAMES,
  SUPPORTED_LANGUAGES,
  changeLanguage,
  isSupportedLanguage,
  matchLanguage,
  useI18nInstance,
} from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import { useTranslation } from 'react-i18next';

/** Switches the interface language (stored as the preference); each language is named in itself. */
export function LanguageMenu({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation('portal');
  const instance = useI18nInstance();
  const current = matchLanguage(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LANGUAGE;

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: SUPPORTED_LANGUAGES.map((language) => ({
          key: language,
          label: <span lang={language}>{LANGUAGE_NAMES[language]}</span>,
        })),
        onClick: ({ key }) => {
          if (isSupportedLanguage(key)) void changeLanguage(instance, key);
        },
      }}
    >
      <Button type="text" icon={<GlobalOutlined aria-hidden />} aria-label={`${t('shell.language')}: ${LANGUAGE_NAMES[current]}`}>
        {!compact && <span lang={current}>{LANGUAGE_NAMES[current]}</span>}
      </Button>
    </Dropdown>
  );
}
