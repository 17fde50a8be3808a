import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Popover from 'antd/es/popover';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Company } from '../api/portal-api';
import { firstName, fullName, initials, type PortalProfile } from '../auth/profile';

export interface UserMenuProps {
  profile: PortalProfile;
  /** The user's picture; the initials show while it loads or when it cannot. */
  avatarUrl?: string;
  /** The company the user works for now, named in the pop-up. */
  company?: Company | null;
  onChangePassword: () => void;
  /** "Change company": given only when company selection applies (several companies). */
  onChangeCompany?: () => void;
  onSignOut: () => void;
}

/** The spec's profile pop-up width. */
export const PROFILE_POPUP_WIDTH = 400;

/** The user button of the top bar and its profile pop-up: name, avatar, greeting and actions. */
export function UserMenu({ profile, avatarUrl, company, onChangePassword, onChangeCompany, onSignOut }: UserMenuProps) {
  const { t } = useTranslation('portal');
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const name = fullName(profile);

  const run = (action: () => void) => () => {
    setOpen(false);
    action();
  };
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape') setOpen(false);
  };

  const card = (
    <div className="profile-card" role="dialog" aria-labelledby={titleId} onKeyDown={closeOnEscape}>
      <div className="profile-card__identity">
        <Avatar size={64} src={avatarUrl} className="profile-card__avatar" aria-hidden="true">
          {initials(profile)}
        </Avatar>
        <div>
          <p id={titleId} className="profile-card__name">
            {name}
          </p>
          {profile.email && <p className="profile-card__email">{profile.email}</p>}
          {company && <p className="profile-card__company">{t('shell.currentCompany', { title: company.title })}</p>}
        </div>
      </div>
      <p className="profile-card__greeting">{t('shell.greeting', { firstName: firstName(profile) })}</p>
      <div className="profile-card__actions">
        <Button type="primary" autoFocus onClick={run(() => void navigate('/profile'))}>
          {t('shell.yourProfile')}
        </Button>
        {onChangeCompany && <Button onClick={run(onChangeCompany)}>{t('shell.changeCompany')}</Button>}
        <Button onClick={run(onChangePassword)}>{t('shell.changePassword')}</Button>
        <Button danger onClick={run(onSignOut)}>
          {t('shell.closeSession')}
        </Button>
      </div>
    </div>
  );

  return (
    <Popover content={card} trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen} destroyOnHidden>
      <Button type="text" className="user-menu__trigger" aria-haspopup="dialog" aria-expanded={open} aria-label={t('shell.userMenu', { name })}>
        <Avatar size="small" src={avatarUrl} className="profile-card__avatar" aria-hidden="true">
          {initials(profile)}
        </Avatar>
        <span className="user-menu__name" aria-hidden="true">
          {name}
        </span>
      </Button>
    </Popover>
  );
}
