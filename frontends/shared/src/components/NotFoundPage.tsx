import './NotFoundPage.css';

// The specification requires this page in French whatever language the user picked,
// so its text deliberately bypasses i18n; it also renders without an i18n provider.
export const NOT_FOUND_TEXT = {
  title: 'Page introuvable',
  body: "La page que vous recherchez n'existe pas ou a été supprimée.",
  action: "Retour à l'accueil",
} as const;

export function NotFoundPage() {
  return (
    <main className="gh-not-found" lang="fr" aria-labelledby="gh-not-found-title">
      <div className="gh-not-found__card">
        <p className="gh-not-found__code" aria-hidden="true">
          404
        </p>
        <h1 id="gh-not-found-title" className="gh-not-found__title">
          {NOT_FOUND_TEXT.title}
        </h1>
        <p className="gh-not-found__body">{NOT_FOUND_TEXT.body}</p>
        {/* A plain link, not a router link: "/" is the portal home even from the admin app. */}
        <a className="gh-not-found__action" href="/">
          {NOT_FOUND_TEXT.action}
        </a>
      </div>
    </main>
  );
}
