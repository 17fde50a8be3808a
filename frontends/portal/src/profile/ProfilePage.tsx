import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, changeLanguage, isSupportedLanguage, useI18nInstance, type Language } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form, { type Rule } from 'antd/es/form';
import Input from 'antd/es/input';
import message from 'antd/es/message';
import Select from 'antd/es/select';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { NavLink, useLocation } from 'react-router';
import { failureMessage, fieldErrorsOf } from '../api/errors';
import { portalApi, useMyProfileQuery, useUpdateProfileMutation, type MyProfile } from '../api/portal-api';
import { PageLoader } from '../shell/PageLoader';
import type { PortalStore } from '../store/store';
import { useChangePassword } from '../shell/use-change-password';
import { AvatarUpload } from './avatar/AvatarUpload';
import { CompanySelectDialog } from './companies/CompanySelectDialog';
import { MyDataButton } from './my-data/MyDataButton';
import './profile.css';

// Its own chunk: the WebAuthn library and the QR code load only when "My security" opens.
const SecuritySection = lazy(() => import('./security/SecuritySection'));

/** Where "My security" is, inside the profile. */
const SECURITY_PATH = '/profile/security';

/** The longest first or last name the server takes (as the console's user form). */
export const NAME_MAX_LENGTH = 100;

/** The fields the user may change, as the form holds them. */
export interface ProfileFormValues {
  firstName: string;
  lastName: string;
  /** As stored: a language the portal does not offer stays, and is shown as invalid. */
  language: string | undefined;
}

const EDITABLE_FIELDS = ['firstName', 'lastName', 'language'] as const;
type ProfileFormKey = (typeof EDITABLE_FIELDS)[number];

function formValuesOf(me: MyProfile): ProfileFormValues {
  return { firstName: me.firstName ?? '', lastName: me.lastName ?? '', language: me.language || undefined };
}

/** The seven languages, each named in itself (and marked as written in it). */
const LANGUAGE_OPTIONS = SUPPORTED_LANGUAGES.map((language) => ({
  value: language,
  label: <span lang={language}>{LANGUAGE_NAMES[language]}</span>,
  title: LANGUAGE_NAMES[language],
}));

/** The picture, "My data" and the current company, beside the form. */
function ProfileSide({ me }: { me: MyProfile }) {
  const { t } = useTranslation('portal');
  const dispatch = useDispatch<PortalStore['dispatch']>();
  const [choosing, setChoosing] = useState(false);
  // The shell's avatar takes the new picture's address (with its version) at once.
  const uploaded = (url: string) =>
    dispatch(portalApi.util.updateQueryData('myProfile', undefined, (draft) => void (draft.avatarUrl = url)));

  return (
    <aside className="profile-page__side">
      {/* The picture and its upload. */}
      <AvatarUpload email={me.email} src={me.avatarUrl} onUploaded={uploaded} />
      {/* "My data": everything kept about the user, as a spreadsheet. */}
      <MyDataButton />
      {me.companyCount > 0 && (
        <div className="profile-page__company">
          <span className="profile-page__company-label">{t('profile.company')}</span>
          <span>{me.currentCompany?.title ?? t('profile.noCompany')}</span>
          {me.companyCount > 1 && <Button onClick={() => setChoosing(true)}>{t('profile.changeCompany')}</Button>}
        </div>
      )}
      <CompanySelectDialog open={choosing} current={me.currentCompany} onClose={() => setChoosing(false)} />
    </aside>
  );
}

/** Read-only user name and e-mail; first name, last name and preferred language; Change password, Cancel, Save. */
function ProfileForm({ me }: { me: MyProfile }) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const i18n = useI18nInstance();
  const ids = { userName: useId(), email: useId() };
  const [form] = Form.useForm<ProfileFormValues>();
  const [update, { isLoading }] = useUpdateProfileMutation();
  const [toast, toastHolder] = message.useMessage();
  const [failure, setFailure] = useState<string>();
  const { changePassword, dialogs } = useChangePassword();

  useEffect(() => {
    // A stored language the portal does not offer (set elsewhere) is said at once, not on Save.
    if (me.language && !isSupportedLanguage(me.language)) form.validateFields(['language']).catch(() => undefined);
  }, [form, me.language]);

  const save = async ({ firstName, lastName, language }: ProfileFormValues) => {
    setFailure(undefined);
    const result = await update({ firstName, lastName, language: language as Language });
    if (result.error) {
      const fields = fieldErrorsOf(result.error).filter((error) => (EDITABLE_FIELDS as readonly string[]).includes(error.field));
      if (fields.length) form.setFields(fields.map((error) => ({ name: error.field as ProfileFormKey, errors: [error.message] })));
      else setFailure(failureMessage(result.error, common));
      return;
    }
    // The portal speaks the chosen language at once, and remembers it as the preference. Its
    // phrases come first: the confirmation is worded in it, and the page has nothing to wait for.
    const chosen = isSupportedLanguage(language) && language !== i18n.language ? language : undefined;
    if (chosen) await i18n.loadLanguages(chosen);
    void toast.success(chosen ? i18n.getFixedT(chosen, 'portal')('profile.saved') : t('profile.saved'));
    if (chosen) void changeLanguage(i18n, chosen);
  };

  const cancel = () => {
    setFailure(undefined);
    form.resetFields();
  };

  const nameRules = (required: string): Rule[] => [
    { required: true, whitespace: true, message: required },
    { max: NAME_MAX_LENGTH, message: t('profile.tooLong', { max: NAME_MAX_LENGTH }) },
  ];

  return (
    <Form<ProfileFormValues> form={form} layout="vertical" className="profile-page__form" initialValues={formValuesOf(me)} onFinish={(values) => void save(values)}>
      {toastHolder}
      {dialogs}
      <Form.Item label={t('profile.userName')} htmlFor={ids.userName}>
        <Input id={ids.userName} value={me.userName} readOnly variant="filled" />
      </Form.Item>
      <Form.Item label={t('profile.email')} htmlFor={ids.email}>
        <Input id={ids.email} value={me.email} readOnly variant="filled" />
      </Form.Item>
      <Form.Item name="firstName" label={t('profile.firstName')} rules={nameRules(t('profile.firstNameRequired'))}>
        <Input autoComplete="given-name" />
      </Form.Item>
      <Form.Item name="lastName" label={t('profile.lastName')} rules={nameRules(t('profile.lastNameRequired'))}>
        <Input autoComplete="family-name" />
      </Form.Item>
      <Form.Item
        name="language"
        label={t('profile.language')}
        rules={[
          { required: true, message: t('profile.languageRequired') },
          {
            validator: async (_, value?: string) => {
              if (value && !isSupportedLanguage(value)) throw new Error(t('profile.languageInvalid'));
            },
          },
        ]}
      >
        <Select options={LANGUAGE_OPTIONS} />
      </Form.Item>
      {failure && <Alert type="error" showIcon role="alert" title={t('profile.saveError')} description={failure} className="profile-page__alert" />}
      <div className="profile-page__actions">
        <Button onClick={changePassword}>{t('profile.changePassword')}</Button>
        <span className="profile-page__spacer" />
        <Button onClick={cancel}>{t('profile.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={isLoading}>
          {t('profile.save')}
        </Button>
      </div>
    </Form>
  );
}

/** What a page built on the user's profile shows until it is in: a loader, or the failure with Retry. */
export function ProfilePending({ profile }: { profile: { isError: boolean; refetch: () => unknown } }) {
  const { t } = useTranslation('portal');
  if (!profile.isError) return <PageLoader label={t('shell.busy')} />;
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={t('profile.loadError')}
      action={<Button onClick={() => void profile.refetch()}>{t('profile.retry')}</Button>}
    />
  );
}

/** The profile's two parts, each at its own address: the current one is marked as the page. */
function ProfileTabs() {
  const { t } = useTranslation('portal');
  return (
    <nav className="profile-page__tabs" aria-label={t('profile.sections')}>
      <NavLink to="/profile" end className="profile-page__tab">
        {t('profile.tabProfile')}
      </NavLink>
      <NavLink to={SECURITY_PATH} className="profile-page__tab">
        {t('profile.tabSecurity')}
      </NavLink>
    </nav>
  );
}

/**
 * "Your Profile" (/profile): the signed-in user's own data, picture and downloads; and "My
 * security" (/profile/security): passkeys, authenticator app, recovery codes and sessions.
 */
export default function ProfilePage() {
  const { t } = useTranslation('portal');
  const titleId = useId();
  const profile = useMyProfileQuery();
  const security = useLocation().pathname.replace(/\/+$/, '') === SECURITY_PATH;

  const content = profile.data ? (
    <div className="profile-page__grid">
      <ProfileSide me={profile.data} />
      <ProfileForm me={profile.data} />
    </div>
  ) : (
    <ProfilePending profile={profile} />
  );

  return (
    <section className="profile-page" aria-labelledby={titleId}>
      <h1 id={titleId} className="profile-page__title">
        {t('profile.title')}
      </h1>
      <ProfileTabs />
      {security ? (
        <Suspense fallback={<PageLoader label={t('shell.busy')} />}>
          <SecuritySection />
        </Suspense>
      ) : (
        content
      )}
    </section>
  );
}
