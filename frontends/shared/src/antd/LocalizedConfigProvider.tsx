import ConfigProvider, { type ConfigProviderProps } from 'antd/es/config-provider';
import type { Locale } from 'antd/es/locale';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '../hooks/use-media-query';
import { DEFAULT_LANGUAGE, matchLanguage, type Language } from '../i18n/languages';
import { cachedAntdLocale, loadAntdLocale } from './antd-locale';

/**
 * The text of hints, descriptions, breadcrumbs and placeholders: 5.7:1 on white and 5.6:1 on the
 * page's background, where the library's own greys (3.4:1 and 1.8:1) are below WCAG AA's 4.5:1.
 */
const SECONDARY_TEXT_COLOR = 'rgba(0, 0, 0, 0.6)';

/** The shared look of both SPAs; the colours follow base.css. */
export const GATEHOUSE_THEME: NonNullable<ConfigProviderProps['theme']> = {
  token: {
    colorPrimary: '#1d4ed8',
    colorLink: '#1d4ed8',
    colorTextTertiary: SECONDARY_TEXT_COLOR,
    colorTextDescription: SECONDARY_TEXT_COLOR,
    colorTextPlaceholder: SECONDARY_TEXT_COLOR,
    borderRadius: 8,
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
};

/**
 * The antd locale of a language; while a locale downloads, the previous one stays (English at
 * first). Never undefined: ConfigProvider wraps its children in one more provider when it has a
 * locale, so a locale coming or going would remount the whole page and lose its state.
 */
export function useAntdLocale(language: Language): Locale {
  const [locale, setLocale] = useState(() => cachedAntdLocale(language) ?? cachedAntdLocale('en')!);
  const cached = cachedAntdLocale(language);
  if (cached && cached !== locale) setLocale(cached);

  useEffect(() => {
    if (cachedAntdLocale(language)) return;
    let current = true;
    loadAntdLocale(language).then(
      (locale) => {
        if (current) setLocale(locale);
      },
      // Without its locale antd keeps the previous language's few built-in words; not worth an error.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [language]);

  return cached ?? locale;
}

/**
 * The nonce the server gave this page for the styles it inserts at run time (the Content Security
 * Policy allows no other inline style). Read from the `nonce` property: browsers hide the attribute.
 */
export function cspNonce(doc: Document = document): string | undefined {
  const meta = doc.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  return meta?.nonce || meta?.getAttribute('nonce') || undefined;
}

export interface LocalizedConfigProviderProps {
  children: ReactNode;
  theme?: ConfigProviderProps['theme'];
}

/** The operating system's "reduce motion" setting (WCAG 2.3.3). */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/**
 * antd's ConfigProvider whose locale follows the i18next language, and whose styles carry the page's
 * nonce. For a user who asked their system to reduce motion, dialogs, pop-ups and menus appear and
 * go at once instead of zooming and sliding, as the product's own styles already do.
 */
export function LocalizedConfigProvider({ children, theme = GATEHOUSE_THEME }: LocalizedConfigProviderProps) {
  const { i18n } = useTranslation();
  const language = matchLanguage(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LANGUAGE;
  const locale = useAntdLocale(language);
  const [csp] = useState(() => ({ nonce: cspNonce() }));
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY);
  const shown = useMemo(() => (reducedMotion ? { ...theme, token: { ...theme.token, motion: false } } : theme), [reducedMotion, theme]);
  return (
    <ConfigProvider locale={locale} theme={shown} csp={csp}>
      {children}
    </ConfigProvider>
  );
}
