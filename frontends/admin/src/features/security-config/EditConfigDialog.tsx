import Alert from 'antd/es/alert';
import Descriptions from 'antd/es/descriptions';
import Modal from 'antd/es/modal';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorBodyOf, errorMessageOf, type QueryError } from '../../api/errors';
import { useUpdateSecurityConfigMutation, type SecurityConfig } from './security-config-api';
import { isYamlSyntax } from './yaml-syntax';
import { YamlEditor } from './YamlEditor';

/** The spec's width of the Edit Config dialog. */
export const EDIT_CONFIG_WIDTH = 800;

/** The server's refusal: its message, and each key it refused (an unknown key, a value out of range) on a line of its own. */
function RefusalAlert({ error, id }: { error: QueryError; id: string }) {
  const { t } = useTranslation(['admin', 'translation']);
  if (!error) return null;
  const fields = (errorBodyOf(error)?.errors ?? []).map((entry) => entry.message).filter(Boolean);
  return (
    <Alert
      id={id}
      type="error"
      showIcon
      title={t('admin:common.errorTitle')}
      description={
        <>
          <p>{errorMessageOf(error, t)}</p>
          {fields.length > 0 && (
            <ul className="security-config__refusals">
              {fields.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
        </>
      }
    />
  );
}

export interface EditConfigDialogProps {
  config: SecurityConfig;
  onClose: () => void;
  /** After a successful save (the dialog closes itself). */
  onSaved: () => void;
}

/**
 * Edit Config (spec: 800 wide, a YAML editor 300 high): the setting's values in force as YAML.
 * Text that does not read as YAML is refused here with "Invalid yaml format"; the server checks
 * it again, with the setting's keys and ranges.
 */
export function EditConfigDialog({ config, onClose, onSaved }: EditConfigDialogProps) {
  const { t } = useTranslation('admin');
  const labelId = useId();
  const errorId = useId();
  const [text, setText] = useState(config.yaml);
  const [syntaxError, setSyntaxError] = useState(false);
  const [update, { isLoading, error, reset }] = useUpdateSecurityConfigMutation();

  const edit = (value: string) => {
    setText(value);
    setSyntaxError(false);
  };
  const save = async () => {
    reset();
    if (!isYamlSyntax(text)) return setSyntaxError(true);
    const result = await update({ id: config.id, body: text });
    if (!result.error) {
      onSaved();
      onClose();
    }
  };

  return (
    <Modal
      open
      width={EDIT_CONFIG_WIDTH}
      title={t('securityConfig.dialogTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={isLoading}
      onOk={() => void save()}
      onCancel={onClose}
    >
      <Descriptions column={1} size="small" className="security-config__about">
        <Descriptions.Item label={t('securityConfig.columns.title')}>{config.title}</Descriptions.Item>
        <Descriptions.Item label={t('securityConfig.columns.description')}>{t(`securityConfig.descriptions.${config.id}`)}</Descriptions.Item>
      </Descriptions>
      <p id={labelId} className="security-config__label">
        {t('securityConfig.body')}
      </p>
      <YamlEditor value={text} onChange={edit} labelledBy={labelId} errorId={syntaxError || error ? errorId : undefined} />
      <p className="security-config__help">{t('securityConfig.help')}</p>
      {syntaxError && <Alert id={errorId} type="error" showIcon title={t('securityConfig.invalidYaml')} />}
      <RefusalAlert error={error} id={errorId} />
    </Modal>
  );
}
