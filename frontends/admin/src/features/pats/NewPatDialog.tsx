import type { PAT_MAX_LIFETIME_YEARS, PAT_NAME_MAX_LENGTH } from '@gatehouse/contracts';
import DatePicker from 'antd/es/date-picker';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Select from 'antd/es/select';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FormDialog, useFormSubmit } from '../directory/components/FormDialog';
import { useCreatePatMutation, usePatApplicationsQuery, type CreatedPersonalAccessToken, type NewPat } from './pats-api';

// The contracts' limits, written out so that the bundle carries no schema; their types keep them equal.
const MAX_YEARS: typeof PAT_MAX_LIFETIME_YEARS = 5;
const NAME_MAX_LENGTH: typeof PAT_NAME_MAX_LENGTH = 200;

/** The console's date format. */
export const PAT_DATE_FORMAT = 'DD-MM-YYYY';

const FIELDS = ['name', 'applicationName', 'expiresAt'] as const;

interface NewPatValues {
  name: string;
  applicationName: string;
  expiresAt?: Dayjs | null;
}

/** The spec's suggestion: five years from today. */
export const suggestedExpiry = () => dayjs().add(MAX_YEARS, 'year').startOf('day');

/** Days the picker offers: from tomorrow (the expiry must be after today) to five years ahead. */
export const outOfRange = (day: Dayjs) => !day.isAfter(dayjs(), 'day') || day.isAfter(suggestedExpiry(), 'day');

/** The token stops working at the start of the chosen day, in the user's time zone. */
function toBody({ name, applicationName, expiresAt }: NewPatValues): NewPat {
  return { name, applicationName, expiresAt: expiresAt ? expiresAt.startOf('day').toISOString() : undefined };
}

/** The New PAT dialog, mounted while open: a name, one of the caller's applications and an expiry. */
export function NewPatDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (token: CreatedPersonalAccessToken) => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<NewPatValues>();
  const [create, { isLoading }] = useCreatePatMutation();
  const applications = usePatApplicationsQuery();
  const { error, send } = useFormSubmit(form, FIELDS);
  const notPast = async (_: unknown, value: Dayjs | null | undefined) => {
    if (value && !value.isAfter(dayjs(), 'day')) throw new Error(t('pats.expiryInPast'));
  };

  return (
    <FormDialog title={t('pats.newPat')} okText={t('common.create')} form={form} loading={isLoading} error={error ?? applications.error} explains403 onClose={onClose}>
      <Form<NewPatValues>
        form={form}
        name="new-pat"
        layout="vertical"
        initialValues={{ expiresAt: suggestedExpiry() }}
        onFinish={(values) => {
          const call = create(toBody(values));
          void send(
            () => call,
            (token) => {
              // The value is handed on, never kept in the store's record of the call.
              call.reset();
              onCreated(token);
            },
          );
        }}
      >
        <Form.Item name="name" label={t('pats.name')} rules={[{ required: true, whitespace: true, message: t('pats.nameRequired') }]}>
          <Input maxLength={NAME_MAX_LENGTH} />
        </Form.Item>
        <Form.Item name="applicationName" label={t('pats.application')} rules={[{ required: true, message: t('pats.applicationRequired') }]}>
          <Select<string>
            loading={applications.isFetching}
            showSearch={{ optionFilterProp: 'label' }}
            options={(applications.data?.items ?? []).map((application) => ({ value: application.name, label: application.displayName }))}
          />
        </Form.Item>
        <Form.Item name="expiresAt" label={t('pats.expiresAt')} extra={t('pats.expiryHelp')} rules={[{ validator: notPast }]}>
          <DatePicker format={PAT_DATE_FORMAT} disabledDate={outOfRange} />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
