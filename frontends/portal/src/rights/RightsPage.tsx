import UploadOutlined from '@ant-design/icons/UploadOutlined';
import type { RightsRequestForm, RightsRequestType } from '@gatehouse/contracts';
import { RIGHTS_ATTACHMENT_EXTENSIONS, RIGHTS_REQUEST_DATE_FORMAT, RIGHTS_TEXT_LIMITS } from '@gatehouse/contracts';
import { RIGHTS } from '@gatehouse/contracts/domain';
import { apiErrorMessage, errorBodyOf } from '@gatehouse/frontend-shared';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox, { type CheckboxGroupProps } from 'antd/es/checkbox';
import DatePicker, { type DatePickerProps } from 'antd/es/date-picker';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import Radio from 'antd/es/radio';
import Upload, { type UploadFile } from 'antd/es/upload';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useExerciseRightsMutation } from './rights-api';
import { rightsFormRules } from './rights-form-rules';
import './rights.css';

/** How long "Request sent successfully" stays on screen (the spec's 4 s). */
export const SENT_VISIBLE_MS = 4000;

type Right = (typeof RIGHTS)[number];
/** The day the date picker holds (a single one: it is not a multiple-date picker). */
type PickedDay = Exclude<NonNullable<DatePickerProps['value']>, readonly unknown[]>;

/** The form's values as antd holds them. */
interface RightsFormValues {
  requestDate: PickedDay;
  fullName: string;
  email: string;
  requestType: RightsRequestType;
  representativeData?: string;
  rightsToExcercise: Right[];
  requestDetails?: string;
  files: UploadFile[];
}

const ACCEPT = RIGHTS_ATTACHMENT_EXTENSIONS.map((extension) => `.${extension}`).join(',');

/** The fields as the spec's call sends them: the date as DD/MM/YYYY, the rights as a JSON list, blank texts left out. */
function requestFields(values: RightsFormValues): RightsRequestForm {
  const representativeData = values.requestType === 'Representative' ? values.representativeData?.trim() : undefined;
  const requestDetails = values.requestDetails?.trim();
  return {
    requestDate: values.requestDate.format(RIGHTS_REQUEST_DATE_FORMAT),
    fullName: values.fullName.trim(),
    email: values.email.trim(),
    requestType: values.requestType,
    rightsToExcercise: JSON.stringify(values.rightsToExcercise),
    ...(representativeData ? { representativeData } : {}),
    ...(requestDetails ? { requestDetails } : {}),
  };
}

/** The chosen documents themselves (antd keeps each one's File beside its entry). */
function chosenFiles(files: readonly UploadFile[]): File[] {
  return files.map((file) => file.originFileObj).filter((file): file is NonNullable<UploadFile['originFileObj']> => Boolean(file));
}

/** What a refused request shows: each problem the server names, else its message, else the generic texts. */
function useFailureMessages(): (error: unknown) => string[] {
  const { t } = useTranslation();
  return (error) => {
    const failed = error as Partial<FetchBaseQueryError> | undefined;
    const data = failed && 'data' in failed ? failed.data : undefined;
    const body = errorBodyOf(data);
    const messages = body.errors.map((entry) => entry.message).filter(Boolean);
    return messages.length ? messages : [apiErrorMessage(failed?.status, data, t)];
  };
}

function RightsIntro({ titleId }: { titleId: string }) {
  const { t } = useTranslation('portal');
  return (
    <div className="rights-page__intro">
      <h1 id={titleId}>{t('rights.title')}</h1>
      <p>{t('rights.intro')}</p>
      <p>{t('rights.introRights')}</p>
      <p>{t('rights.introDocuments')}</p>
    </div>
  );
}

interface RightsFieldsProps {
  representative: boolean;
}

/**
 * The rights to choose, a group of checkboxes named by its label. The form marks a required
 * field `aria-required`, which ARIA does not allow on a group: the group leaves it out, and a
 * request without a right says so in the field's error, tied to the group.
 */
function RightsChoice({ 'aria-required': _required, ...props }: CheckboxGroupProps<Right> & { 'aria-required'?: unknown }) {
  return <Checkbox.Group<Right> {...props} />;
}

/** The request's fields, in the spec's order. */
function RightsFields({ representative }: RightsFieldsProps) {
  const { t } = useTranslation('portal');
  const rules = rightsFormRules(t);
  const rightsLabelId = useId();
  return (
    <>
      <Form.Item name="requestDate" label={t('rights.requestDate')} rules={rules.requestDate}>
        <DatePicker format={RIGHTS_REQUEST_DATE_FORMAT} placeholder={t('rights.requestDatePlaceholder')} />
      </Form.Item>
      <Form.Item name="fullName" label={t('rights.fullName')} rules={rules.fullName}>
        <Input maxLength={RIGHTS_TEXT_LIMITS.fullName} autoComplete="name" />
      </Form.Item>
      <Form.Item name="email" label={t('rights.email')} rules={rules.email}>
        <Input type="email" maxLength={RIGHTS_TEXT_LIMITS.email} autoComplete="email" />
      </Form.Item>
      <Form.Item name="requestType" label={t('rights.requestType')} rules={rules.requestType}>
        <Radio.Group>
          <Radio value="Direct">{t('rights.direct')}</Radio>
          <Radio value="Representative">{t('rights.representative')}</Radio>
        </Radio.Group>
      </Form.Item>
      {representative && (
        // preserve={false}: data typed for a representative is not sent once the request is direct again.
        <Form.Item name="representativeData" label={t('rights.representativeData')} extra={t('rights.representativeDataHelp')} preserve={false}>
          <TextArea rows={3} maxLength={RIGHTS_TEXT_LIMITS.representativeData} />
        </Form.Item>
      )}
      <Form.Item name="rightsToExcercise" label={<span id={rightsLabelId}>{t('rights.rightsToExercise')}</span>} rules={rules.rightsToExcercise}>
        <RightsChoice aria-labelledby={rightsLabelId} options={RIGHTS.map((right) => ({ value: right, label: t(`rights.right.${right}`) }))} />
      </Form.Item>
      <Form.Item name="requestDetails" label={t('rights.requestDetails')}>
        <TextArea rows={4} maxLength={RIGHTS_TEXT_LIMITS.requestDetails} />
      </Form.Item>
      <Form.Item
        name="files"
        label={t('rights.documents')}
        extra={t('rights.documentsHelp')}
        valuePropName="fileList"
        getValueFromEvent={(event: { fileList: UploadFile[] }) => event.fileList}
        rules={rules.files}
      >
        {/* Nothing is uploaded on choosing: the documents go with the request. */}
        <Upload multiple accept={ACCEPT} beforeUpload={() => false}>
          <Button icon={<UploadOutlined />}>{t('rights.addDocuments')}</Button>
        </Upload>
      </Form.Item>
    </>
  );
}

/**
 * `/profile/rights` (and the spec's misspelt `/rigths`): exercising one's data-protection rights.
 * The intro on the left, the request form on the right; a sent request shows "Request sent
 * successfully" for 4 s and the form starts again empty, a refused one the server's messages.
 */
export default function RightsPage() {
  const { t } = useTranslation('portal');
  const titleId = useId();
  const [form] = Form.useForm<RightsFormValues>();
  const requestType = Form.useWatch('requestType', form);
  const [exerciseRights, { isLoading }] = useExerciseRightsMutation();
  const failureMessages = useFailureMessages();
  const [sent, setSent] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const outcome = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!sent) return undefined;
    const timer = setTimeout(() => setSent(false), SENT_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [sent]);

  // The outcome shows above the form, out of sight once the user has scrolled down to "Send".
  useEffect(() => {
    if (sent || errors.length > 0) outcome.current?.scrollIntoView({ block: 'center' });
  }, [sent, errors]);

  const submit = async (values: RightsFormValues) => {
    setSent(false);
    setErrors([]);
    const result = await exerciseRights({ fields: requestFields(values), files: chosenFiles(values.files) });
    if ('error' in result) {
      setErrors(failureMessages(result.error));
      return;
    }
    form.resetFields();
    setSent(true);
  };

  return (
    <section className="rights-page" aria-labelledby={titleId}>
      <RightsIntro titleId={titleId} />
      <div className="rights-page__form">
        <h2>{t('rights.formTitle')}</h2>
        <div ref={outcome}>
          {sent && <Alert type="success" showIcon title={t('rights.sent')} role="status" />}
          {errors.length > 0 && (
            <Alert
              type="error"
              showIcon
              title={t('rights.failed')}
              description={
                <ul className="rights-page__errors">
                  {errors.map((message, index) => (
                    <li key={`${index}-${message}`}>{message}</li>
                  ))}
                </ul>
              }
            />
          )}
        </div>
        <Form<RightsFormValues> form={form} name="rights-request" layout="vertical" onFinish={(values) => void submit(values)}>
          <RightsFields representative={requestType === 'Representative'} />
          <Button type="primary" htmlType="submit" loading={isLoading}>
            {t('rights.send')}
          </Button>
        </Form>
      </div>
    </section>
  );
}
