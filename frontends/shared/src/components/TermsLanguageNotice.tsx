import Alert from 'antd/es/alert';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, matchLanguage, type Language } from '../i18n/languages';

export interface TermsLanguageNoticeProps {
  /** The languages the terms exist in, as the server names them. */
  languages: readonly string[];
  /** The language of the text shown; nothing is said without one. */
  textLanguage: string | null | undefined;
  className?: string;
}

/**
 * The languages of `codes` named in `reader`'s language and joined as a list: "French", "anglais
 * et français", "Englisch und Französisch". A code Intl cannot name is written as it is.
 */
export function languageList(codes: readonly string[], reader: Language): string {
  const names = new Intl.DisplayNames([reader], { type: 'language', fallback: 'code' });
  return new Intl.ListFormat([reader], { type: 'conjunction' }).format(codes.map((code) => names.of(code) ?? code));
}

/**
 * Says, in the reader's language, that terms are shown in another language because they do not
 * exist in the reader's: "These terms exist only in French". Nothing when they exist in it.
 */
export function TermsLanguageNotice({ languages, textLanguage, className }: TermsLanguageNoticeProps) {
  const { t, i18n } = useTranslation();
  const reader = matchLanguage(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LANGUAGE;
  if (!textLanguage || languages.some((language) => matchLanguage(language) === reader)) return null;
  return <Alert className={className} type="info" showIcon role="note" title={t('common.termsOnlyIn', { languages: languageList(languages, reader) })} />;
}
