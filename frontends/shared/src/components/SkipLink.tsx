import type { ReactNode } from 'react';
import './SkipLink.css';

/** The first stop of the keyboard: a link to the page's main content, shown only when focused. */
export function SkipLink({ href = '#content', children }: { href?: string; children: ReactNode }) {
  return (
    <a className="skip-link" href={href}>
      {children}
    </a>
  );
}
