import i18next, { type BackendModule, type i18n as I18n, type Resource, type ResourceLanguage } from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  FALLBACK_LANGUAGE,
  SUPPORTED_LANGUAGES,
  detectLanguage,
  storeLanguagePreference,
  type DetectLanguageOptions,
  type Language,
} from './languages';
import { resources as bundledResources, type I18nResources } from './resources';

/** Fetches one language of a namespace (typically a dynamic `import()`, so it is its own chunk). */
export type PhrasesLoader = () => Promise<object>;

/**
 * One namespace's phrases in every supported language: the phrases themselves (bundled with the
 * app) or a loader (fetched the first time a component asks for the namespace in that language,
 * so a page downloads its own language only).
 */
export type NamespaceResources = Record<Language, object | PhrasesLoader>;

export interface CreateI18nOptions {
  /** Skips detection; tests and embedding pages use it to pin a language. */
  language?: Language;
  detection?: DetectLanguageOptions;
  resources?: I18nResources;
  /**
   * An app's own namespaces next to the shared 'translation' one, e.g. `{ account: accountResources }`
   * (read with `useTranslation('account')`). Declare their types in `I18nNamespaces`.
   */
  namespaces?: Readonly<Record<string, NamespaceResources>>;
  /** Namespaces with loaders to fetch at start rather than on first use. */
  preload?: readonly string[];
}

function isLazy(resources: NamespaceResources): boolean {
  return Object.values(resources).some((value) => typeof value === 'function');
}

type Loaders = Map<string, PhrasesLoader>;

const loaderKey = (language: string, namespace: string) => `${language}|${namespace}`;

function splitNamespaces(
  base: I18nResources,
  namespaces: Readonly<Record<string, NamespaceResources>>,
): { bundled: Resource; loaders: Loaders } {
  const bundled: Resource = {};
  const loaders: Loaders = new Map();
  for (const language of SUPPORTED_LANGUAGES) {
    bundled[language] = { ...base[language] };
    for (const [namespace, phrases] of Object.entries(namespaces)) {
      if (namespace === 'translation') throw new Error('The "translation" namespace is the shared one');
      const value = phrases[language];
      if (typeof value === 'function') loaders.set(loaderKey(language, namespace), value as PhrasesLoader);
      else bundled[language][namespace] = value as ResourceLanguage;
    }
  }
  return { bundled, loaders };
}

// An i18next backend that only runs the loaders handed to createI18n.
function loaderBackend(loaders: Loaders): BackendModule {
  return {
    type: 'backend',
    callbackApi: true,
    init: () => undefined,
    read(language, namespace, callback) {
      const loader = loaders.get(loaderKey(language, namespace));
      if (!loader) {
        callback(null, {});
        return;
      }
      loader().then(
        (phrases) => callback(null, phrases as ResourceLanguage),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
      );
    },
  };
}

export function createI18n(options: CreateI18nOptions = {}): I18n {
  const namespaces = options.namespaces ?? {};
  const { bundled, loaders } = splitNamespaces(options.resources ?? bundledResources, namespaces);
  const instance = i18next.createInstance();
  // Also registers the instance as react-i18next's default, which `fetchJson` reads.
  instance.use(initReactI18next);
  if (loaders.size) instance.use(loaderBackend(loaders));
  void instance.init({
    resources: bundled,
    // Bundled phrases and loaded ones side by side.
    partialBundledLanguages: loaders.size > 0,
    lng: options.language ?? detectLanguage(options.detection),
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: SUPPORTED_LANGUAGES,
    // Without it i18next also looks up "pt" for "pt-BR" and warns that it is unsupported.
    load: 'currentOnly',
    defaultNS: 'translation',
    // Namespaces with loaders are fetched when a component first asks for them (react-i18next
    // suspends meanwhile); those listed in `preload` are fetched at once.
    ns: ['translation', ...Object.keys(namespaces).filter((ns) => !isLazy(namespaces[ns]!)), ...(options.preload ?? [])],
    // React already escapes rendered strings; escaping here would double-encode them.
    interpolation: { escapeValue: false },
    // The shared phrases are bundled, so initialising synchronously avoids a first render of raw keys.
    initAsync: false,
  });
  syncDocumentLanguage(instance);
  return instance;
}

// Keeps <html lang> truthful for screen readers and hyphenation when the language changes.
function syncDocumentLanguage(instance: I18n): void {
  if (typeof document === 'undefined') return;
  const apply = (language: string) => {
    document.documentElement.lang = language;
  };
  if (instance.language) apply(instance.language);
  instance.on('languageChanged', apply);
}

export async function changeLanguage(instance: I18n, language: Language): Promise<void> {
  storeLanguagePreference(language);
  await instance.changeLanguage(language);
}
