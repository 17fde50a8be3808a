import { afterEach, describe, expect, it } from 'vitest';
import { productBasePath, productPath } from './base-path';

function served(base: string | undefined) {
  document.head.querySelector('meta[name="gatehouse-base-path"]')?.remove();
  if (base === undefined) return;
  const meta = document.createElement('meta');
  meta.name = 'gatehouse-base-path';
  meta.content = base;
  document.head.prepend(meta);
}

describe('the product’s base path', () => {
  afterEach(() => served(undefined));

  it('is the one the shell names, and nothing at the root of the host', () => {
    expect(productBasePath()).toBe('');
    served('/identity');
    expect(productBasePath()).toBe('/identity');
  });

  it('puts paths from the product’s root under it, once', () => {
    served('/identity');
    expect(productPath('/api/v1/config')).toBe('/identity/api/v1/config');
    expect(productPath('/')).toBe('/identity/');
    expect(productPath('/identity/api/v1/config')).toBe('/identity/api/v1/config');
    expect(productPath('/identity')).toBe('/identity');
    expect(productPath('/identityx')).toBe('/identity/identityx');
    expect(productPath('https://other.example/api')).toBe('https://other.example/api');
    expect(productPath('//other.example/api')).toBe('//other.example/api');
    expect(productPath('relative/path')).toBe('relative/path');
  });

  it('leaves paths alone at the root of the host', () => {
    expect(productPath('/api/v1/config')).toBe('/api/v1/config');
  });
});
