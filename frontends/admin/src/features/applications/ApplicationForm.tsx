import {
  APPLICATION_ICON_NAME_PATTERN,
  APPLICATION_ID_PATTERN,
  APPLICATION_LIMITS,
  APPLICATION_NAME_PATTERN,
  isApplicationUrl,
} from '@gatehouse/contracts';
import Checkbox from 'antd/es/checkbox';
import Form, { type FormInstance, type FormItemProps } from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import Radio from 'antd/es/radio';
import Switch from 'antd/es/switch';
import type { ApplicationFormValues } from './form-values';
import { IconUpload } from './IconUpload';
import { UriListField } from './UriListField';
import { useApplicationsTranslation, type ApplicationsT } from './use-applications-translation';

type Rules = NonNullable<FormItemProps['rules']>;

/** A rule on an optional text: nothing to check when it is empty. */
const whenGiven = (check: (value: string) => boolean, message: string): Rules[number] => ({
  validator: async (_: unknown, value?: string) => {
    const text = value?.trim() ?? '';
    if (text && !check(text)) throw new Error(message);
  },
});

const maxLength = (t: ApplicationsT, max: number): Rules[number] => ({ max, message: t('form.tooLong', { max }) });

export interface ApplicationFormProps {
  form: FormInstance<ApplicationFormValues>;
  /** The form's name (ids of its fields). */
  name: string;
  /** A new application also takes its id and name (client id), fixed afterwards. */
  creating?: boolean;
  initialValues: ApplicationFormValues;
  disabled?: boolean;
  /** Where the stored uploaded icon is served, when there is one. */
  storedIconUrl?: string;
  /** One of the product's own applications: it stays enabled. */
  system?: boolean;
  onFinish: (values: ApplicationFormValues) => void;
}

/** An application's General properties, as created and as edited (spec 5: New application). */
export function ApplicationForm({ form, name, creating = false, initialValues, disabled, storedIconUrl, system = false, onFinish }: ApplicationFormProps) {
  const { t } = useApplicationsTranslation();
  const displayName = Form.useWatch('displayName', form) ?? '';
  const type = Form.useWatch('type', form) ?? initialValues.type;

  return (
    <Form<ApplicationFormValues> form={form} name={name} layout="vertical" initialValues={initialValues} disabled={disabled} onFinish={onFinish}>
      {creating ? <Identifiers t={t} /> : null}
      <Form.Item
        name="displayName"
        label={t('form.displayName')}
        rules={[{ required: true, whitespace: true, message: t('form.displayNameRequired') }, maxLength(t, APPLICATION_LIMITS.displayName)]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="description" label={t('form.description')} rules={[maxLength(t, APPLICATION_LIMITS.description)]}>
        <TextArea rows={3} />
      </Form.Item>
      <Form.Item name="type" label={t('form.type')} extra={t(type === 'public' ? 'type.publicHelp' : 'type.confidentialHelp')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'confidential', label: t('type.confidential') },
            { value: 'public', label: t('type.public') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="privateUrl"
        label={t('form.privateUrl')}
        rules={[
          { required: true, whitespace: true, message: t('form.privateUrlRequired') },
          maxLength(t, APPLICATION_LIMITS.url),
          whenGiven((url) => isApplicationUrl(url), t('form.invalidUrl')),
        ]}
      >
        <Input placeholder="https://app.example.com/" />
      </Form.Item>
      <Form.Item
        name="publicUrl"
        label={t('form.publicUrl')}
        extra={t('form.publicUrlHelp')}
        rules={[maxLength(t, APPLICATION_LIMITS.url), whenGiven((url) => isApplicationUrl(url), t('form.invalidUrl'))]}
      >
        <Input placeholder="https://www.example.com/app" />
      </Form.Item>
      <UriListField name="redirectUris" label={t('form.redirectUris')} requiredMessage={t('form.redirectUrisRequired')} />
      <UriListField name="postLogoutRedirectUris" label={t('form.postLogoutRedirectUris')} />
      <Form.Item name="enabled" valuePropName="checked" className="applications-form__flag" extra={t(system ? 'form.enabledSystem' : 'form.enabledHelp')}>
        <Checkbox disabled={disabled || system}>{t('form.enabled')}</Checkbox>
      </Form.Item>
      <Form.Item name="prerelease" valuePropName="checked" className="applications-form__flag">
        <Checkbox>{t('form.prerelease')}</Checkbox>
      </Form.Item>
      <Form.Item name="hideInUserList" valuePropName="checked" className="applications-form__flag">
        <Checkbox>{t('form.hideInUserList')}</Checkbox>
      </Form.Item>
      <Form.Item name="deviceFlow" valuePropName="checked" label={t('form.deviceFlow')} extra={t(system ? 'form.deviceFlowSystem' : 'form.deviceFlowHelp')}>
        <Switch disabled={disabled || system} />
      </Form.Item>
      <Form.Item name="requireDpop" valuePropName="checked" label={t('form.requireDpop')} extra={t('form.requireDpopHelp')}>
        <Switch />
      </Form.Item>
      <Form.Item
        name="icon"
        label={t('form.icon')}
        extra={t('form.iconHelp')}
        rules={[maxLength(t, APPLICATION_LIMITS.url), whenGiven((icon) => APPLICATION_ICON_NAME_PATTERN.test(icon) || isApplicationUrl(icon), t('form.invalidIcon'))]}
      >
        <Input placeholder="AppstoreOutlined" />
      </Form.Item>
      <Form.Item name="iconImage">
        <IconUpload storedUrl={storedIconUrl} name={displayName || t('form.icon')} disabled={disabled} />
      </Form.Item>
      {creating && type === 'confidential' ? <p className="applications-form__note">{t('form.secretNote')}</p> : null}
    </Form>
  );
}

/** The id and the name (client id) of a new application. */
function Identifiers({ t }: { t: ApplicationsT }) {
  return (
    <>
      <Form.Item
        name="name"
        label={t('form.name')}
        extra={t('form.nameHelp')}
        rules={[
          { required: true, whitespace: true, message: t('form.nameRequired') },
          maxLength(t, APPLICATION_LIMITS.name),
          whenGiven((name) => APPLICATION_NAME_PATTERN.test(name), t('form.invalidName')),
        ]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="id"
        label={t('form.id')}
        extra={t('form.idHelp')}
        rules={[maxLength(t, APPLICATION_LIMITS.id), whenGiven((id) => APPLICATION_ID_PATTERN.test(id), t('form.invalidName'))]}
      >
        <Input autoComplete="off" />
      </Form.Item>
    </>
  );
}
