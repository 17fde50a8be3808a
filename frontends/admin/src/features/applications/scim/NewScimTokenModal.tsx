import type { SCIM_TOKEN_LIMITS } from '@gatehouse/contracts';
import DatePicker from 'antd/es/date-picker';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import dayjs, { type Dayjs } from 'dayjs';
import { FormDialog, useFormSubmit } from '../../directory/components/FormDialog';
import { AreaSelect } from '../../directory/components/selects';
import { useDirectoryTranslation } from '../../directory/use-directory-translation';
import { useCreateScimTokenMutation, type IssuedScimToken, type NewScimToken } from './scim-api';
import { useScimTranslation } from './use-scim-translation';

// The contract's limit, written out so that the bundle carries no schema; its type keeps it equal.
const NAME_MAX_LENGTH: (typeof SCIM_TOKEN_LIMITS)['name'] = 200;

/** The console's date format. */
export const SCIM_DATE_FORMAT = 'DD-MM-YYYY';

/** The fields the server may name in its errors. */
const FIELDS = ['name', 'areaId', 'expiresAt'] as const;

interface NewScimTokenValues {
  name: string;
  areaId: string;
  /** Empty: the server's default, a year from now. */
  expiresAt?: Dayjs | null;
}

/** The latest expiry the server takes: two years (of 365 days) from now. */
export const latestExpiry = () => dayjs().add(2 * 365, 'day');

/** Days the picker offers: from tomorrow (the expiry must be ahead) to two years ahead. */
export const outOfRange = (day: Dayjs) => !day.isAfter(dayjs(), 'day') || day.isAfter(latestExpiry(), 'day');

/** The body sent: the expiry only when one was picked (the token stops working at the start of that day, in the user's time zone). */
export function newScimTokenOf({ name, areaId, expiresAt }: NewScimTokenValues): NewScimToken {
  const token: NewScimToken = { name: name.trim(), areaId };
  if (expiresAt) token.expiresAt = expiresAt.startOf('day').toISOString();
  return token;
}

export interface NewScimTokenModalProps {
  applicationId: string;
  onClose: () => void;
  /** The token issued, with its value: shown once, never kept. */
  onIssued: (token: IssuedScimToken) => void;
}

/** The New token dialog, mounted while open: a name, the area the token provisions, an optional expiry. */
export function NewScimTokenModal({ applicationId, onClose, onIssued }: NewScimTokenModalProps) {
  const { t } = useScimTranslation();
  const { t: common } = useDirectoryTranslation();
  const [form] = Form.useForm<NewScimTokenValues>();
  const [create, { isLoading }] = useCreateScimTokenMutation();
  const { error, send } = useFormSubmit(form, FIELDS);
  const notPast = async (_: unknown, value: Dayjs | null | undefined) => {
    if (value && !value.isAfter(dayjs(), 'day')) throw new Error(t('form.expiryInPast'));
  };

  return (
    <FormDialog title={t('form.title')} okText={common('common.create')} form={form} loading={isLoading} error={error} onClose={onClose}>
      <Form<NewScimTokenValues>
        form={form}
        name="new-scim-token"
        layout="vertical"
        onFinish={(values) => {
          const call = create({ applicationId, token: newScimTokenOf(values) });
          void send(
            () => call,
            (token) => {
              // The value is handed on, never kept in the store's record of the call.
              call.reset();
              onIssued(token);
            },
          );
        }}
      >
        <Form.Item
          name="name"
          label={t('form.name')}
          extra={t('form.nameHelp')}
          rules={[
            { required: true, whitespace: true, message: t('form.nameRequired') },
            { max: NAME_MAX_LENGTH, message: t('form.tooLong', { max: NAME_MAX_LENGTH }) },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="areaId" label={t('form.area')} extra={t('form.areaHelp')} rules={[{ required: true, message: t('form.areaRequired') }]}>
          <AreaSelect />
        </Form.Item>
        <Form.Item name="expiresAt" label={t('form.expiresAt')} extra={t('form.expiryHelp')} rules={[{ validator: notPast }]}>
          <DatePicker format={SCIM_DATE_FORMAT} disabledDate={outOfRange} placeholder={t('form.expiresAtPlaceholder')} />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
