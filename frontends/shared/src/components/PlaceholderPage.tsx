import type { ReactNode } from 'react';

export interface PlaceholderPageProps {
  title: ReactNode;
  children?: ReactNode;
}

// Stands in for screens that are specified but not built yet, so routing can ship first.
export function PlaceholderPage({ title, children }: PlaceholderPageProps) {
  return (
    <main className="gh-page">
      <div className="gh-page__card">
        <h1 className="gh-page__title">{title}</h1>
        {children}
      </div>
    </main>
  );
}
