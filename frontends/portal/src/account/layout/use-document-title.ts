import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Names the browser tab after the page, so screen-reader users hear where they landed. */
export function useDocumentTitle(pageTitle: string): void {
  const { i18n } = useTranslation();
  const productName = i18n.t('common.productName');
  useEffect(() => {
    document.title = `${pageTitle} · ${productName}`;
  }, [pageTitle, productName]);
}
