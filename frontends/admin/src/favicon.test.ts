import { describe, expect, it } from 'vitest';
import indexHtml from '../index.html?raw';
import favicon from '../public/favicon.svg?raw';

describe('favicon', () => {
  it('is declared by the console page and shipped with it, so loading the console asks for no missing file', () => {
    const page = new DOMParser().parseFromString(indexHtml, 'text/html');
    const link = page.querySelector('link[rel="icon"]');

    expect(link?.getAttribute('type')).toBe('image/svg+xml');
    // A root path names a file of public/, which the build serves under the console's base.
    expect(link?.getAttribute('href')).toBe('/favicon.svg');
    expect(favicon).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });
});
