import { describe, expect, it } from 'vitest';
import { nonceCreatedStyles } from './style-nonce';

const blankDocument = () => document.implementation.createHTMLDocument('blank');

describe('nonceCreatedStyles', () => {
  it('gives the nonce to the <style> elements the scripts create', () => {
    const doc = blankDocument();
    nonceCreatedStyles('n0nce', doc);
    expect(doc.createElement('style').nonce).toBe('n0nce');
    expect(doc.createElement('STYLE').nonce).toBe('n0nce');
  });

  it('leaves other elements without one', () => {
    const doc = blankDocument();
    nonceCreatedStyles('n0nce', doc);
    const div = doc.createElement('div');
    expect(div.localName).toBe('div');
    expect(div.nonce).toBeFalsy();
    expect(div.hasAttribute('nonce')).toBe(false);
  });

  it('leaves the document as it is when the page has no nonce', () => {
    const doc = blankDocument();
    const create = doc.createElement;
    nonceCreatedStyles(undefined, doc);
    expect(doc.createElement).toBe(create);
    expect(doc.createElement('style').nonce).toBeFalsy();
  });
});
