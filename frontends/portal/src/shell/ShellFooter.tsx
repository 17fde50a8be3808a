import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ShellLink, ShellLinks } from './links';

function FooterLink({ link, label }: { link: ShellLink | undefined; label: string }) {
  const { t } = useTranslation('portal');
  if (!link) return null;
  return (
    <li>
      {link.external ? (
        <a href={link.href} target="_blank" rel="noopener noreferrer">
          {label}
          <span className="visually-hidden"> {t('shell.opensInNewTab')}</span>
        </a>
      ) : (
        <Link to={link.href}>{label}</Link>
      )}
    </li>
  );
}

export function ShellFooter({ links }: { links: ShellLinks }) {
  const { t } = useTranslation('portal');
  return (
    <footer className="shell-footer">
      <nav aria-label={t('shell.footer')}>
        <ul>
          <FooterLink link={links.termsOfUse} label={t('shell.termsOfUse')} />
          <FooterLink link={links.dataSubjectRights} label={t('shell.dataSubjectRights')} />
          <FooterLink link={links.cookiePolicy} label={t('shell.cookiePolicy')} />
        </ul>
      </nav>
      <p className="shell-footer__product">{t('common.productName', { ns: 'translation' })}</p>
    </footer>
  );
}
