import MinusCircleOutlined from '@ant-design/icons/MinusCircleOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { APPLICATION_LIMITS, isApplicationUrl } from '@gatehouse/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import { useApplicationsTranslation } from './use-applications-translation';

export interface UriListFieldProps {
  name: 'redirectUris' | 'postLogoutRedirectUris';
  label: string;
  /** The spec's message when the list has no address (none: the list may be empty). */
  requiredMessage?: string;
}

/**
 * An editable list of addresses (redirect or post-logout URIs): one row each, added and removed
 * one by one, each an absolute https address (http on localhost) without a fragment, none twice.
 * Blank rows are allowed while typing and left out when the form is sent.
 */
export function UriListField({ name, label, requiredMessage }: UriListFieldProps) {
  const { t } = useApplicationsTranslation();
  const form = Form.useFormInstance();
  // The list's own rule (at least one address) is checked again as rows are typed, not only on submit.
  const recheckList = () => void form.validateFields([name]).catch(() => undefined);
  const listRules = requiredMessage
    ? [
        {
          validator: async (_: unknown, uris?: string[]) => {
            if (!uris?.some((uri) => uri?.trim())) throw new Error(requiredMessage);
          },
        },
      ]
    : undefined;

  return (
    <Form.Item label={label} required={Boolean(requiredMessage)} className="applications-uris">
      <Form.List name={name} rules={listRules}>
        {(fields, { add, remove }, { errors }) => (
          <>
            {fields.map((field, index) => (
              <div key={field.key} className="applications-uris__row">
                <Form.Item
                  name={field.name}
                  className="applications-uris__item"
                  validateTrigger={['onChange', 'onBlur']}
                  rules={[
                    ({ getFieldValue }) => ({
                      validator: async (_: unknown, value?: string) => {
                        const uri = value?.trim() ?? '';
                        if (!uri) return;
                        if (uri.length > APPLICATION_LIMITS.url) throw new Error(t('form.tooLong', { max: APPLICATION_LIMITS.url }));
                        if (!isApplicationUrl(uri, { redirect: true })) throw new Error(t('form.invalidRedirectUri'));
                        const list: string[] = getFieldValue(name) ?? [];
                        if (list.findIndex((other) => other?.trim() === uri) < index) throw new Error(t('form.duplicateUri'));
                      },
                    }),
                  ]}
                >
                  <Input aria-label={t('form.uri', { list: label, number: index + 1 })} placeholder={t('form.uriPlaceholder')} onChange={recheckList} />
                </Form.Item>
                <Button
                  type="text"
                  icon={<MinusCircleOutlined />}
                  aria-label={t('form.removeUri', { list: label, number: index + 1 })}
                  onClick={() => remove(field.name)}
                />
              </div>
            ))}
            {fields.length < APPLICATION_LIMITS.uris ? (
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add('')}>
                {t('form.addUri')}
              </Button>
            ) : null}
            <Form.ErrorList errors={errors} />
          </>
        )}
      </Form.List>
    </Form.Item>
  );
}
