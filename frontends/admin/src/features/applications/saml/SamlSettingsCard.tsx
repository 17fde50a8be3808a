import MinusCircleOutlined from '@ant-design/icons/MinusCircleOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import { SAML_APPLICATION_ATTRIBUTE_SOURCES, SAML_LIMITS, isApplicationUrl, type SamlApplicationAttributeSource } from '@gatehouse/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Checkbox from 'antd/es/checkbox';
import Divider from 'antd/es/divider';
import Form, { type FormItemProps } from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import { useRef, useState, type ChangeEvent } from 'react';
import { ErrorAlert } from '../../directory/components/ErrorAlert';
import type { Feedback } from '../../directory/components/feedback';
import { useApplicationsTranslation, type ApplicationsT } from '../use-applications-translation';
import { useReadSamlMetadataMutation, useSamlApplicationQuery, useSetSamlSettingsMutation, type SamlMetadata } from './saml-api';
import { samlFormValuesFromMetadata, samlFormValuesOf, samlSettingsOf, showSamlErrors, type SamlFormValues } from './saml-form-values';

type Rules = NonNullable<FormItemProps['rules']>;

/** A service provider's entity id: an address as its endpoints, or a URN (the rule of the API, checked again there). */
const isEntityId = (value: string) => /^urn:[a-z0-9][a-z0-9-]{0,31}:\S+$/i.test(value) || isApplicationUrl(value, { redirect: true });

const SOURCE_LABELS: Record<SamlApplicationAttributeSource, Parameters<ApplicationsT>[0]> = {
  email: 'saml.sourceEmail',
  firstName: 'saml.sourceFirstName',
  lastName: 'saml.sourceLastName',
  displayName: 'saml.sourceDisplayName',
  userName: 'saml.sourceUserName',
  roles: 'saml.sourceRoles',
  company: 'saml.sourceCompany',
};

export interface SamlSettingsCardProps {
  applicationId: string;
  editable: boolean;
  feedback: Feedback;
}

/**
 * The SAML section of a SAML application's page: the service provider's settings (filled in by
 * hand or from its metadata, uploaded or read from its address) and the identity provider's
 * metadata address to give it.
 */
export function SamlSettingsCard({ applicationId, editable, feedback }: SamlSettingsCardProps) {
  const { t } = useApplicationsTranslation();
  const { data, error, isLoading } = useSamlApplicationQuery(applicationId);

  return (
    <Card title={t('saml.title')}>
      {data ? (
        <>
          <IdentityProvider t={t} entityId={data.idpEntityId} metadataUrl={data.idpMetadataUrl} />
          {data.settings ? null : <Alert type="info" showIcon className="directory-form-error" title={t('saml.notConfigured')} />}
          <SamlForm key={applicationId} applicationId={applicationId} initialValues={samlFormValuesOf(data.settings)} editable={editable} feedback={feedback} />
        </>
      ) : isLoading ? (
        <Skeleton active />
      ) : (
        <ErrorAlert error={error} />
      )}
    </Card>
  );
}

function IdentityProvider({ t, entityId, metadataUrl }: { t: ApplicationsT; entityId: string; metadataUrl: string }) {
  return (
    <section aria-label={t('saml.idp')}>
      <Typography.Paragraph type="secondary">{t('saml.idpHelp')}</Typography.Paragraph>
      <dl className="applications-facts">
        <dt>{t('saml.idpMetadataUrl')}</dt>
        <dd>
          <Typography.Text copyable code>
            {metadataUrl}
          </Typography.Text>
        </dd>
        <dt>{t('saml.idpEntityId')}</dt>
        <dd>
          <Typography.Text copyable code>
            {entityId}
          </Typography.Text>
        </dd>
      </dl>
      <Divider />
    </section>
  );
}

interface SamlFormProps {
  applicationId: string;
  initialValues: SamlFormValues;
  editable: boolean;
  feedback: Feedback;
}

function SamlForm({ applicationId, initialValues, editable, feedback }: SamlFormProps) {
  const { t } = useApplicationsTranslation();
  const [form] = Form.useForm<SamlFormValues>();
  const [save, { isLoading: saving }] = useSetSamlSettingsMutation();
  const [error, setError] = useState<unknown>();

  const submit = async (values: SamlFormValues) => {
    setError(undefined);
    const result = await save({ id: applicationId, settings: samlSettingsOf({ ...initialValues, ...values }) });
    if (result.error) {
      if (!showSamlErrors(form, result.error)) setError(result.error);
      return;
    }
    feedback.success(t('common.saved'));
  };

  const urlRule: Rules[number] = {
    validator: async (_: unknown, value?: string) => {
      const url = value?.trim() ?? '';
      if (url && !isApplicationUrl(url, { redirect: true })) throw new Error(t('saml.invalidUrl'));
    },
  };

  return (
    <>
      {editable ? <MetadataImport onRead={(metadata) => form.setFieldsValue(samlFormValuesFromMetadata(metadata, form.getFieldsValue(true)))} /> : null}
      <ErrorAlert error={error} className="directory-form-error" />
      <Form<SamlFormValues> form={form} name={`saml-${applicationId}`} layout="vertical" initialValues={initialValues} disabled={!editable} onFinish={(values) => void submit(values)}>
        <Form.Item
          name="entityId"
          label={t('saml.entityId')}
          extra={t('saml.entityIdHelp')}
          rules={[
            { required: true, whitespace: true, message: t('saml.entityIdRequired') },
            { max: SAML_LIMITS.entityId, message: t('form.tooLong', { max: SAML_LIMITS.entityId }) },
            {
              validator: async (_: unknown, value?: string) => {
                const id = value?.trim() ?? '';
                if (id && !isEntityId(id)) throw new Error(t('saml.invalidEntityId'));
              },
            },
          ]}
        >
          <Input placeholder="https://app.example.com/saml/metadata" autoComplete="off" />
        </Form.Item>
        <AcsList t={t} urlRule={urlRule} />
        <Form.Item name="singleLogoutUrl" label={t('saml.slo')} rules={[urlRule]}>
          <Input placeholder="https://app.example.com/saml/logout" />
        </Form.Item>
        <Form.Item name="nameIdFormat" label={t('saml.nameIdFormat')}>
          <Radio.Group
            vertical
            options={[
              { value: 'email', label: t('saml.nameIdEmail') },
              { value: 'persistent', label: t('saml.nameIdPersistent') },
            ]}
          />
        </Form.Item>
        <AttributeMapping t={t} />
        <Form.Item
          name="certificate"
          label={t('saml.certificate')}
          extra={t('saml.certificateHelp')}
          rules={[
            {
              validator: async (_: unknown, value?: string) => {
                const pem = value?.trim() ?? '';
                if (pem && !/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/.test(pem)) throw new Error(t('saml.invalidCertificate'));
              },
            },
          ]}
        >
          <TextArea rows={5} spellCheck={false} autoComplete="off" placeholder="-----BEGIN CERTIFICATE-----" />
        </Form.Item>
        <Form.Item
          name="wantAuthnRequestsSigned"
          valuePropName="checked"
          dependencies={['certificate']}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_: unknown, on?: boolean) => {
                if (on && !String(getFieldValue('certificate') ?? '').trim()) throw new Error(t('saml.certificateRequired'));
              },
            }),
          ]}
        >
          <Checkbox>{t('saml.wantAuthnRequestsSigned')}</Checkbox>
        </Form.Item>
        <Form.Item
          name="encryptAssertions"
          valuePropName="checked"
          dependencies={['certificate']}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_: unknown, on?: boolean) => {
                if (on && !String(getFieldValue('certificate') ?? '').trim()) throw new Error(t('saml.encryptionCertificateRequired'));
              },
            }),
          ]}
        >
          <Checkbox>{t('saml.encryptAssertions')}</Checkbox>
        </Form.Item>
        <Form.Item name="defaultRelayState" label={t('saml.defaultRelayState')} extra={t('saml.defaultRelayStateHelp')} rules={[{ max: SAML_LIMITS.relayState, message: t('form.tooLong', { max: SAML_LIMITS.relayState }) }]}>
          <Input autoComplete="off" spellCheck={false} />
        </Form.Item>
      </Form>
      {editable ? (
        <Button type="primary" loading={saving} onClick={() => form.submit()}>
          {t('common.save')}
        </Button>
      ) : null}
    </>
  );
}

/** The assertion consumer service addresses, the first being the default one. */
function AcsList({ t, urlRule }: { t: ApplicationsT; urlRule: Rules[number] }) {
  return (
    <Form.Item label={t('saml.acs')} extra={t('saml.acsHelp')} required className="applications-uris">
      <Form.List
        name="assertionConsumerServices"
        rules={[
          {
            validator: async (_: unknown, urls?: string[]) => {
              if (!urls?.some((url) => url?.trim())) throw new Error(t('saml.acsRequired'));
            },
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <>
            {fields.map((field, index) => (
              <div key={field.key} className="applications-uris__row">
                <Form.Item
                  name={field.name}
                  className="applications-uris__item"
                  rules={[
                    urlRule,
                    ({ getFieldValue }) => ({
                      validator: async (_: unknown, value?: string) => {
                        const url = value?.trim() ?? '';
                        const list: string[] = getFieldValue('assertionConsumerServices') ?? [];
                        if (url && list.findIndex((other) => other?.trim() === url) < index) throw new Error(t('saml.duplicateUrl'));
                      },
                    }),
                  ]}
                >
                  <Input aria-label={t('saml.acsUrl', { number: index + 1 })} placeholder="https://app.example.com/saml/acs" />
                </Form.Item>
                <Button type="text" icon={<MinusCircleOutlined />} aria-label={t('saml.removeAcs', { number: index + 1 })} onClick={() => remove(field.name)} />
              </div>
            ))}
            {fields.length < SAML_LIMITS.assertionConsumerServices ? (
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add('')}>
                {t('saml.addAcs')}
              </Button>
            ) : null}
            <Form.ErrorList errors={errors} />
          </>
        )}
      </Form.List>
    </Form.Item>
  );
}

/** The attribute rows: a property of the user and the SAML name it is sent under. */
function AttributeMapping({ t }: { t: ApplicationsT }) {
  const options = SAML_APPLICATION_ATTRIBUTE_SOURCES.map((source) => ({ value: source, label: t(SOURCE_LABELS[source]) }));
  return (
    <Form.Item label={t('saml.attributes')} extra={t('saml.attributesHelp')}>
      <Form.List name="attributes">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, index) => (
              <Space key={field.key} align="start" className="applications-saml__attribute">
                <Form.Item name={[field.name, 'source']}>
                  <Select<SamlApplicationAttributeSource> aria-label={t('saml.attributeSource', { number: index + 1 })} options={options} style={{ minWidth: 200 }} />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'name']}
                  rules={[
                    { required: true, whitespace: true, message: t('saml.attributeNameRequired') },
                    ({ getFieldValue }) => ({
                      validator: async (_: unknown, value?: string) => {
                        const name = value?.trim() ?? '';
                        const rows: Array<{ name?: string }> = getFieldValue('attributes') ?? [];
                        if (name && rows.findIndex((row) => row?.name?.trim() === name) < index) throw new Error(t('saml.duplicateAttribute'));
                      },
                    }),
                  ]}
                >
                  <Input aria-label={t('saml.attributeName', { number: index + 1 })} placeholder="urn:oid:0.9.2342.19200300.100.1.3" />
                </Form.Item>
                <Button type="text" icon={<MinusCircleOutlined />} aria-label={t('saml.removeAttribute', { number: index + 1 })} onClick={() => remove(field.name)} />
              </Space>
            ))}
            {fields.length < SAML_LIMITS.attributes ? (
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ source: 'email', name: '' })}>
                {t('saml.addAttribute')}
              </Button>
            ) : null}
          </>
        )}
      </Form.List>
    </Form.Item>
  );
}

/** Reads the service provider's metadata (a file, or its address) and hands what it says to the form. */
function MetadataImport({ onRead }: { onRead: (metadata: SamlMetadata) => void }) {
  const { t } = useApplicationsTranslation();
  const [read, { isLoading }] = useReadSamlMetadataMutation();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const importFrom = async (source: { xml: string } | { url: string }) => {
    setError(undefined);
    setDone(false);
    const result = await read(source);
    if (result.error) {
      setError(result.error);
      return;
    }
    onRead(result.data);
    setDone(true);
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) await importFrom({ xml: await file.text() });
  };

  return (
    <section aria-label={t('saml.import')} className="applications-saml__import">
      <Typography.Title level={5}>{t('saml.import')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('saml.importHelp')}</Typography.Paragraph>
      <Space wrap>
        <input ref={fileInput} type="file" accept=".xml,application/xml,text/xml,application/samlmetadata+xml" hidden aria-label={t('saml.importFile')} onChange={(event) => void onFile(event)} />
        <Button icon={<UploadOutlined />} loading={isLoading} onClick={() => fileInput.current?.click()}>
          {t('saml.importFile')}
        </Button>
        <Space.Compact>
          <Input aria-label={t('saml.importUrl')} placeholder="https://app.example.com/saml/metadata" value={url} onChange={(event) => setUrl(event.target.value)} style={{ minWidth: 280 }} />
          <Button disabled={!url.trim()} loading={isLoading} onClick={() => void importFrom({ url: url.trim() })}>
            {t('saml.importRead')}
          </Button>
        </Space.Compact>
      </Space>
      {done ? <Alert type="success" showIcon className="directory-form-error" title={t('saml.imported')} /> : null}
      <ErrorAlert error={error} className="directory-form-error" />
      <Divider />
    </section>
  );
}
