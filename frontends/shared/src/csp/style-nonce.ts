/**
 * Gives `nonce` to every `<style>` element this document's scripts create from now on. Some
 * helpers of the component library insert a style of their own without a way to hand them the
 * nonce (a dialog's scroll lock, a scrollbar measurement): the Content Security Policy refuses a
 * style without it. Markup parsed from HTML is not concerned, only elements the page's own
 * scripts make with `document.createElement`; the policy itself stays as it is.
 */
export function nonceCreatedStyles(nonce: string | undefined, doc: Document = document): void {
  if (!nonce) return;
  const create = doc.createElement.bind(doc) as (tagName: string, options?: ElementCreationOptions) => HTMLElement;
  doc.createElement = ((tagName: string, options?: ElementCreationOptions) => {
    const element = create(tagName, options);
    if (element.localName === 'style') element.nonce = nonce;
    return element;
  }) as Document['createElement'];
}
