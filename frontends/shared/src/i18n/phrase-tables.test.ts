import { describe, expect, it } from 'vitest';
import { byLanguage, perLanguage, phraseLoaders } from './phrase-tables';

const files = {
  './en.ts': async () => ({ en: 'English' }),
  './fr.ts': async () => ({ fr: 'French' }),
  './es.ts': async () => ({ es: 'Spanish' }),
  './pt-pt.ts': async () => ({ ptPT: 'European Portuguese' }),
  './pt-br.ts': async () => ({ ptBR: 'Brazilian Portuguese' }),
  './it.ts': async () => ({ it: 'Italian' }),
  './de.ts': async () => ({ de: 'German' }),
};

describe('phrase tables', () => {
  it('key the language files’ exports by language', () => {
    expect(byLanguage({ en: 1, fr: 2, es: 3, ptPT: 4, ptBR: 5, it: 6, de: 7 })).toEqual({ en: 1, fr: 2, es: 3, 'pt-PT': 4, 'pt-BR': 5, it: 6, de: 7 });
    expect(perLanguage((language) => language.length)).toMatchObject({ en: 2, 'pt-BR': 5 });
  });

  it('load each language from its own file and export', async () => {
    const loaders = phraseLoaders<string>(files);

    expect(await loaders['pt-BR']()).toBe('Brazilian Portuguese');
    expect(await loaders['pt-PT']()).toBe('European Portuguese');
    expect(await loaders.de()).toBe('German');
  });

  it('find the files under a folder too', async () => {
    const nested = Object.fromEntries(Object.entries(files).map(([path, load]) => [path.replace('./', './account/'), load]));
    expect(await phraseLoaders<string>(nested).fr()).toBe('French');
  });

  it('fail at once without a language file, and on loading a file without its export', async () => {
    const { './it.ts': _it, ...withoutItalian } = files;
    expect(() => phraseLoaders(withoutItalian)).toThrow('No phrase file for it (it.ts)');

    const loaders = phraseLoaders({ ...files, './de.ts': async () => ({ en: 'misnamed' }) });
    await expect(loaders.de()).rejects.toThrow('The phrase file de.ts exports no "de"');
  });
});
