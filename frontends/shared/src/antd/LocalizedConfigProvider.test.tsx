import { act, render, screen } from '@testing-library/react';
import Button from 'antd/es/button';
import ConfigProvider from 'antd/es/config-provider';
import theme from 'antd/es/theme';
import { useContext, useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, createI18n } from '../i18n/create-i18n';
import { cspNonce, LocalizedConfigProvider, REDUCED_MOTION_QUERY } from './LocalizedConfigProvider';

function AntdLocale() {
  const { locale } = useContext(ConfigProvider.ConfigContext);
  return <p>antd locale: {locale?.locale ?? 'default'}</p>;
}

function renderIn(i18n: ReturnType<typeof createI18n>) {
  return render(
    <I18nextProvider i18n={i18n}>
      <LocalizedConfigProvider>
        <AntdLocale />
      </LocalizedConfigProvider>
    </I18nextProvider>,
  );
}

describe('LocalizedConfigProvider', () => {
  it('gives antd the French locale at once, French being the default language', () => {
    renderIn(createI18n({ language: 'fr' }));
    expect(screen.getByText('antd locale: fr')).toBeInTheDocument();
  });

  it("gives antd its own English for English", () => {
    renderIn(createI18n({ language: 'en' }));
    expect(screen.getByText('antd locale: en')).toBeInTheDocument();
  });

  it('keeps the page mounted when the language changes', async () => {
    const i18n = createI18n({ language: 'en' });
    let mounts = 0;
    function Probe() {
      useEffect(() => {
        mounts += 1;
      }, []);
      return null;
    }
    render(
      <I18nextProvider i18n={i18n}>
        <LocalizedConfigProvider>
          <Probe />
          <AntdLocale />
        </LocalizedConfigProvider>
      </I18nextProvider>,
    );

    for (const language of ['fr', 'it', 'en'] as const) {
      await act(async () => {
        await changeLanguage(i18n, language);
      });
    }
    expect(await screen.findByText('antd locale: en')).toBeInTheDocument();
    expect(mounts).toBe(1);
  });

  it('fetches the locale of another language and follows language changes', async () => {
    const i18n = createI18n({ language: 'de' });
    renderIn(i18n);
    expect(await screen.findByText('antd locale: de')).toBeInTheDocument();

    await act(async () => {
      await changeLanguage(i18n, 'pt-BR');
    });
    expect(await screen.findByText('antd locale: pt-br')).toBeInTheDocument();

    await act(async () => {
      await changeLanguage(i18n, 'fr');
    });
    expect(screen.getByText('antd locale: fr')).toBeInTheDocument();
  });
});

describe('security: the styles antd inserts carry the page’s CSP nonce', () => {
  afterEach(() => document.head.querySelector('meta[property="csp-nonce"]')?.remove());

  it('reads the nonce the server put in the page and gives it to every style antd inserts', () => {
    const meta = document.createElement('meta');
    meta.setAttribute('property', 'csp-nonce');
    meta.setAttribute('nonce', 'n0nce-from-server');
    document.head.prepend(meta);
    expect(cspNonce()).toBe('n0nce-from-server');

    function Context() {
      const { csp } = useContext(ConfigProvider.ConfigContext);
      return <p>nonce: {csp?.nonce}</p>;
    }
    render(
      <I18nextProvider i18n={createI18n({ language: 'en' })}>
        <LocalizedConfigProvider>
          <Context />
          <Button type="primary">Styled</Button>
        </LocalizedConfigProvider>
      </I18nextProvider>,
    );
    expect(screen.getByText('nonce: n0nce-from-server')).toBeInTheDocument();
    const inserted = [...document.head.querySelectorAll('style')];
    expect(inserted.length).toBeGreaterThan(0);
    for (const style of inserted) expect(style.nonce || style.getAttribute('nonce')).toBe('n0nce-from-server');
  });
});

describe('LocalizedConfigProvider and reduced motion', () => {
  function Motion() {
    const { token } = theme.useToken();
    return <p>motion: {String(token.motion)}</p>;
  }

  function renderWith(reduce: boolean) {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === REDUCED_MOTION_QUERY && reduce,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    render(
      <I18nextProvider i18n={createI18n({ language: 'en' })}>
        <LocalizedConfigProvider>
          <Motion />
        </LocalizedConfigProvider>
      </I18nextProvider>,
    );
  }

  it('turns antd motion off for a user whose system asks to reduce motion', () => {
    renderWith(true);
    expect(screen.getByText('motion: false')).toBeInTheDocument();
  });

  it('keeps antd motion for everyone else', () => {
    renderWith(false);
    expect(screen.getByText('motion: true')).toBeInTheDocument();
  });
});

