import {
  APPLICATION_ICON_NAME_PATTERN,
  APPLICATION_ID_PATTERN,
  APPLICATION_LIMITS,
  APPLICATION_NAME_PATTERN,
  isApplicationUrl,
} from '@gatehouse/contracts';
import Checkbox from 'antd/es/checkbox';
import Divider from 'antd/es/divider';
import Form, { type FormInstance, type FormItemProps } from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import Switch, { type SwitchProps } from 'antd/es/switch';
import { LOOKUP_LIMIT } from '../directory/api/lookups-api';
import { useApplicationsQuery } from './applications-api';
import { needsKeys, parseJwks, type ApplicationFormValues, type JwksProblem } from './form-values';
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

/** What the form says of a pasted JWKS it refuses. */
function jwksMessage(t: ApplicationsT, problem: JwksProblem): string {
  switch (problem.problem) {
    case 'empty':
      return t('form.keysRequired');
    case 'notJson':
      return t('form.jwksNotJson');
    case 'notKeySet':
      return t('form.jwksNotKeySet');
    case 'tooManyKeys':
      return t('form.jwksTooManyKeys', { max: problem.max });
    case 'keyNotPublic':
      return t('form.jwksKeyNotPublic', { index: problem.index });
    case 'keyNotForSigning':
      return t('form.jwksKeyNotForSigning', { index: problem.index });
    case 'privateKey':
      return t('form.jwksPrivateKey', { index: problem.index, member: problem.member });
  }
}

const JWKS_PLACEHOLDER = '{ "keys": [ { "kty": "EC", "crv": "P-256", "x": "…", "y": "…" } ] }';

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
  /** One of the product's own applications: it stays enabled, and exchanges no users' tokens. */
  system?: boolean;
  onFinish: (values: ApplicationFormValues) => void;
}

/** An application's General properties, as created and as edited (spec 5: New application). */
export function ApplicationForm({ form, name, creating = false, initialValues, disabled, storedIconUrl, system = false, onFinish }: ApplicationFormProps) {
  const { t } = useApplicationsTranslation();
  const displayName = Form.useWatch('displayName', form) ?? '';
  const type = Form.useWatch('type', form) ?? initialValues.type;
  // Kept while their fields are hidden (preserve), so that what shows follows what was chosen.
  const watch = { form, preserve: true };
  const fapi2 = Form.useWatch('fapi2', watch) ?? initialValues.fapi2 ?? false;
  const clientAuthentication = Form.useWatch('clientAuthentication', watch) ?? initialValues.clientAuthentication;
  const requireSignedRequestObject = Form.useWatch('requireSignedRequestObject', watch) ?? initialValues.requireSignedRequestObject;
  const keysSource = Form.useWatch('keysSource', watch) ?? initialValues.keysSource ?? 'jwks';
  // A SAML application has none of the OpenID Connect settings: its SAML ones are on its page.
  const saml = (Form.useWatch('protocol', watch) ?? initialValues.protocol) === 'saml';
  const confidential = type === 'confidential';

  return (
    <Form<ApplicationFormValues> form={form} name={name} layout="vertical" initialValues={initialValues} disabled={disabled} onFinish={onFinish}>
      {creating ? <Identifiers t={t} /> : null}
      {creating ? (
        <Form.Item name="protocol" label={t('saml.protocol')} extra={saml ? t('saml.protocolHelp') : undefined}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'oidc', label: t('saml.protocolOidc') },
              { value: 'saml', label: t('saml.protocolSaml') },
            ]}
          />
        </Form.Item>
      ) : null}
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
      {saml ? null : (
        <Form.Item name="type" label={t('form.type')} extra={t(type === 'public' ? 'type.publicHelp' : 'type.confidentialHelp')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'confidential', label: t('type.confidential') },
              { value: 'public', label: t('type.public') },
            ]}
          />
        </Form.Item>
      )}
      <Form.Item
        name="privateUrl"
        label={t('form.privateUrl')}
        extra={saml ? t('saml.privateUrlHelp') : undefined}
        rules={[
          // A SAML application opens through the identity provider: its own address is optional.
          { required: !saml, whitespace: true, message: t('form.privateUrlRequired') },
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
      {saml ? null : (
        <>
          <UriListField name="redirectUris" label={t('form.redirectUris')} requiredMessage={t('form.redirectUrisRequired')} />
          <UriListField name="postLogoutRedirectUris" label={t('form.postLogoutRedirectUris')} />
        </>
      )}
      <Form.Item name="enabled" valuePropName="checked" className="applications-form__flag" extra={t(system ? 'form.enabledSystem' : 'form.enabledHelp')}>
        <Checkbox disabled={disabled || system}>{t('form.enabled')}</Checkbox>
      </Form.Item>
      <Form.Item name="prerelease" valuePropName="checked" className="applications-form__flag">
        <Checkbox>{t('form.prerelease')}</Checkbox>
      </Form.Item>
      <Form.Item name="hideInUserList" valuePropName="checked" className="applications-form__flag">
        <Checkbox>{t('form.hideInUserList')}</Checkbox>
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
      {saml ? null : (
        <>
          <Divider titlePlacement="start">{t('form.security')}</Divider>
          <Form.Item name="deviceFlow" valuePropName="checked" label={t('form.deviceFlow')} extra={t(system ? 'form.deviceFlowSystem' : 'form.deviceFlowHelp')}>
            <Switch disabled={disabled || system} />
          </Form.Item>
          <Form.Item name="requireDpop" valuePropName="checked" label={t('form.requireDpop')} extra={t(fapi2 ? 'form.fapi2Requires' : 'form.requireDpopHelp')}>
            <RequiredSwitch required={fapi2} disabled={disabled} />
          </Form.Item>
          <Form.Item name="requirePar" valuePropName="checked" label={t('form.requirePar')} extra={t(fapi2 ? 'form.fapi2Requires' : 'form.requireParHelp')}>
            <RequiredSwitch required={fapi2} disabled={disabled} />
          </Form.Item>
          <Form.Item
            name="requireSignedRequestObject"
            valuePropName="checked"
            label={t('form.requireSignedRequestObject')}
            extra={t('form.requireSignedRequestObjectHelp')}
          >
            <Switch />
          </Form.Item>
          <Form.Item
            name="fapi2"
            valuePropName="checked"
            label={t('form.fapi2')}
            extra={t('form.fapi2Help')}
            dependencies={['type', 'clientAuthentication']}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_: unknown, on?: boolean) => {
                  if (on && !(getFieldValue('type') === 'confidential' && getFieldValue('clientAuthentication') === 'private_key_jwt')) {
                    throw new Error(t('form.fapi2NeedsPrivateKeyJwt'));
                  }
                },
              }),
            ]}
          >
            <Switch />
          </Form.Item>
          {confidential ? (
            <Form.Item name="clientAuthentication" label={t('form.clientAuthentication')} extra={t('form.clientAuthenticationHelp')}>
              <Radio.Group
                vertical
                options={[
                  { value: 'client_secret_basic', label: t('form.clientSecretBasic') },
                  { value: 'private_key_jwt', label: t('form.privateKeyJwt') },
                ]}
              />
            </Form.Item>
          ) : null}
          {needsKeys({ type, clientAuthentication, requireSignedRequestObject }) ? <PublicKeys t={t} source={keysSource} /> : null}
          {confidential && !system ? <ExchangeAudiences t={t} self={initialValues.id} /> : null}
        </>
      )}
      {creating && !saml && type === 'confidential' ? <p className="applications-form__note">{t('form.secretNote')}</p> : null}
    </Form>
  );
}

/** A switch shown on and locked while a profile requires it (FAPI 2.0: PAR and DPoP), else the form's own. */
function RequiredSwitch({ required, checked, disabled, ...props }: SwitchProps & { required: boolean }) {
  return <Switch {...props} checked={required || checked} disabled={disabled || required || undefined} />;
}

/** The application's public keys, pasted as a JWKS or at the address of one. */
function PublicKeys({ t, source }: { t: ApplicationsT; source: string }) {
  return (
    <>
      <Form.Item name="keysSource" label={t('form.keys')} extra={t('form.keysHelp')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'jwks', label: t('form.keysByValue') },
            { value: 'jwksUri', label: t('form.keysByAddress') },
          ]}
        />
      </Form.Item>
      {source === 'jwksUri' ? (
        <Form.Item
          name="jwksUri"
          label={t('form.jwksUri')}
          rules={[
            { required: true, whitespace: true, message: t('form.keysRequired') },
            maxLength(t, APPLICATION_LIMITS.url),
            whenGiven((url) => isApplicationUrl(url), t('form.invalidJwksUri')),
          ]}
        >
          <Input placeholder="https://app.example.com/.well-known/jwks.json" />
        </Form.Item>
      ) : (
        <Form.Item
          name="jwks"
          label={t('form.jwks')}
          rules={[
            {
              validator: async (_: unknown, value?: string) => {
                const jwks = parseJwks(value);
                if ('problem' in jwks) throw new Error(jwksMessage(t, jwks));
              },
            },
          ]}
        >
          <TextArea rows={6} spellCheck={false} autoComplete="off" placeholder={JWKS_PLACEHOLDER} />
        </Form.Item>
      )}
    </>
  );
}

/** The applications whose API this one may call for a signed-in user (token exchange): neither itself nor the product's own. */
function ExchangeAudiences({ t, self }: { t: ApplicationsT; self?: string }) {
  const { data, isFetching } = useApplicationsQuery({ top: LOOKUP_LIMIT, orderBy: 'displayName asc' });
  const options = (data?.items ?? [])
    .filter((application) => application.id !== self && !application.system)
    .map((application) => ({ value: application.id, label: `${application.displayName} (${application.name})` }));
  return (
    <Form.Item name="tokenExchangeAudiences" label={t('form.tokenExchange')} extra={t('form.tokenExchangeHelp')}>
      <Select<string[]> mode="multiple" loading={isFetching} showSearch={{ optionFilterProp: 'label' }} placeholder={t('form.tokenExchangePlaceholder')} options={options} />
    </Form.Item>
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
