import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import type { i18n as I18n } from 'i18next';
import { config as schemaConfig } from 'zod';
import { cspNonce } from './antd/LocalizedConfigProvider';
import { nonceCreatedStyles } from './csp/style-nonce';
import { createI18n, type CreateI18nOptions } from './i18n/create-i18n';

/**
 * Renders an SPA's root component into index.html's #root, with its i18n instance (built with
 * `i18nOptions`, e.g. the app's own namespaces), within the Content Security Policy: the styles its
 * scripts insert carry the page's nonce, and nothing asks to evaluate code.
 */
export function mountApp(App: ComponentType<{ i18n: I18n }>, i18nOptions: CreateI18nOptions = {}): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html must contain an element with id "root"');
  nonceCreatedStyles(cspNonce());
  // The schemas validate without compiling code: zod's probe for `new Function` is refused by the
  // policy (no 'unsafe-eval') and reported as a violation, even though zod does without.
  schemaConfig({ jitless: true });
  createRoot(container).render(
    <StrictMode>
      <App i18n={createI18n(i18nOptions)} />
    </StrictMode>,
  );
}
