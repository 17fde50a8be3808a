import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS } from '@gatehouse/contracts';
import Checkbox from 'antd/es/checkbox';
import Form, { type FormInstance, type FormItemProps } from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { LOOKUP_LIMIT } from '../directory/api/lookups-api';
import { useApplicationsQuery } from '../applications/applications-api';
import { EVENT_GROUPS, eventLabel, inContractOrder } from './events';
import type { WebhookFormValues } from './form-values';
import { isWebhookUrl } from './url';
import { useWebhooksTranslation, type WebhooksT } from './use-webhooks-translation';
import type { WebhookEventType } from './webhooks-api';

type Rules = NonNullable<FormItemProps['rules']>;

const maxLength = (t: WebhooksT, max: number): Rules[number] => ({ max, message: t('form.tooLong', { max }) });

export interface WebhookFormProps {
  form: FormInstance<WebhookFormValues>;
  /** The form's name (ids of its fields). */
  name: string;
  /** A new endpoint also takes its application, fixed afterwards. */
  creating?: boolean;
  /** An existing endpoint's application (null: global), shown as fixed. */
  applicationName?: string | null;
  initialValues: WebhookFormValues;
  disabled?: boolean;
  onFinish: (values: WebhookFormValues) => void;
}

/** An endpoint's settings, as created and as edited: its address, description, application, events, on or off. */
export function WebhookForm({ form, name, creating = false, applicationName, initialValues, disabled, onFinish }: WebhookFormProps) {
  const { t } = useWebhooksTranslation();
  return (
    <Form<WebhookFormValues> form={form} name={name} layout="vertical" initialValues={initialValues} disabled={disabled} onFinish={onFinish}>
      <Form.Item
        name="url"
        label={t('form.url')}
        extra={t('form.urlHelp')}
        rules={[
          { required: true, whitespace: true, message: t('form.urlRequired') },
          maxLength(t, WEBHOOK_LIMITS.url),
          {
            validator: async (_: unknown, value?: string) => {
              const url = value?.trim() ?? '';
              if (url && !isWebhookUrl(url)) throw new Error(t('form.invalidUrl'));
            },
          },
        ]}
      >
        <Input inputMode="url" autoComplete="off" spellCheck={false} placeholder="https://hooks.example.com/gatehouse" />
      </Form.Item>
      <Form.Item name="description" label={t('form.description')} rules={[maxLength(t, WEBHOOK_LIMITS.description)]}>
        <TextArea rows={2} />
      </Form.Item>
      {creating ? (
        <ApplicationSelect t={t} />
      ) : (
        <p className="webhooks-form__fixed">
          <span className="webhooks-form__fixed-label">{t('form.application')}</span>{' '}
          {applicationName ? t('form.applicationFixed', { name: applicationName }) : t('form.applicationFixedGlobal')}
        </p>
      )}
      <Form.Item
        name="events"
        label={t('form.events')}
        required
        rules={[
          {
            validator: async (_: unknown, value?: string[]) => {
              if (!value?.length) throw new Error(t('form.eventsRequired'));
            },
          },
        ]}
      >
        <EventsField />
      </Form.Item>
      <Form.Item name="enabled" valuePropName="checked" label={t('form.enabled')} extra={t('form.enabledHelp')}>
        <Switch />
      </Form.Item>
      {creating ? <p className="webhooks-form__note">{t('form.secretNote')}</p> : null}
    </Form>
  );
}

/** The application whose events a new endpoint hears, loaded as the applications form loads its lists; none: global. */
function ApplicationSelect({ t }: { t: WebhooksT }) {
  const { data, isFetching } = useApplicationsQuery({ top: LOOKUP_LIMIT, orderBy: 'displayName asc' });
  const options = (data?.items ?? []).map((application) => ({ value: application.id, label: `${application.displayName} (${application.name})` }));
  return (
    <Form.Item name="applicationId" label={t('form.application')} extra={t('form.applicationHelp')}>
      <Select<string>
        allowClear
        loading={isFetching}
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('form.applicationPlaceholder')}
        options={options}
      />
    </Form.Item>
  );
}

interface EventsFieldProps {
  /** Given by Form.Item: the events ticked, and the change. */
  value?: WebhookEventType[];
  onChange?: (value: WebhookEventType[]) => void;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
}

/**
 * The events as grouped checkboxes (Users, Roles and groups, Sign-ins, Operation requests,
 * Applications), each with its human name and its technical name small beside it; "Select all"
 * and each group's box tick or clear the lot. The form's disabled state reaches every box.
 */
function EventsField({ value = [], onChange, id, ...aria }: EventsFieldProps) {
  const { t } = useWebhooksTranslation();
  const chosen = new Set<string>(value);
  const set = (events: readonly WebhookEventType[], on: boolean) => {
    const next = new Set(chosen);
    for (const event of events) {
      if (on) next.add(event);
      else next.delete(event);
    }
    onChange?.(inContractOrder([...next]));
  };
  const box = (events: readonly WebhookEventType[]) => {
    const ticked = events.filter((event) => chosen.has(event)).length;
    return { checked: ticked > 0 && ticked === events.length, indeterminate: ticked > 0 && ticked < events.length };
  };

  return (
    <div id={id} role="group" aria-label={t('form.events')} className="webhooks-events" {...aria}>
      <Checkbox {...box(WEBHOOK_EVENT_TYPES)} onChange={(event) => set(WEBHOOK_EVENT_TYPES, event.target.checked)} className="webhooks-events__all">
        {t('form.selectAll')}
      </Checkbox>
      <div className="webhooks-events__groups">
        {EVENT_GROUPS.map((group) => (
          <fieldset key={group.key} className="webhooks-events__group">
            <legend className="webhooks-events__legend">
              <Checkbox {...box(group.events)} onChange={(event) => set(group.events, event.target.checked)}>
                {t(`eventGroups.${group.key}`)}
              </Checkbox>
            </legend>
            {group.events.map((type) => (
              <Checkbox key={type} checked={chosen.has(type)} onChange={(event) => set([type], event.target.checked)} className="webhooks-events__event">
                {eventLabel(t, type)} <code className="webhooks-events__name">{type}</code>
              </Checkbox>
            ))}
          </fieldset>
        ))}
      </div>
    </div>
  );
}
