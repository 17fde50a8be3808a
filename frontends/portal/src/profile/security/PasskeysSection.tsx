import { KeyOutlined } from '@ant-design/icons';
import type { MAX_PASSKEYS } from '@gatehouse/contracts';
import { useFormatDateTime } from '@gatehouse/frontend-shared';
import { browserSupportsWebAuthn, startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import message from 'antd/es/message';
import Modal from 'antd/es/modal';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { runPrompt } from '../../account/passkey-prompt';
import {
  useAddPasskeyMutation,
  usePasskeyRegistrationOptionsMutation,
  useRemovePasskeyMutation,
  useRenamePasskeyMutation,
  type Passkey,
  type SecurityOverview,
} from '../../api/portal-api';
import { useRecentSignIn } from './recent-sign-in';
import { SecurityCard, useFailure } from './security-parts';

// The contract's limit, written out so that the bundle carries no schema; its type keeps them equal.
const MAX: typeof MAX_PASSKEYS = 20;
/** The longest name the server takes. */
const NAME_MAX_LENGTH = 100;

/** One passkey: its name, synced or not, when it was added and last used, and where. */
function PasskeyItem({ passkey, onRename, onRemove }: { passkey: Passkey; onRename: () => void; onRemove: () => void }) {
  const { t } = useTranslation('portal');
  const formatDateTime = useFormatDateTime();
  const added = formatDateTime(passkey.createdAt);
  const lastUsed = passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : undefined;
  return (
    <li className="security-item">
      <div className="security-item__main">
        <span className="security-item__title">
          <KeyOutlined aria-hidden /> {passkey.name}
          {passkey.backedUp ? <Tag color="blue">{t('security.passkeys.synced')}</Tag> : null}
        </span>
        <span className="security-item__detail">
          {passkey.deviceHint ? t('security.passkeys.addedOn', { date: added, device: passkey.deviceHint }) : t('security.passkeys.added', { date: added })}
        </span>
        <span className="security-item__detail">
          {!lastUsed
            ? t('security.passkeys.neverUsed')
            : passkey.lastUsedDevice
              ? t('security.passkeys.lastUsedOn', { date: lastUsed, device: passkey.lastUsedDevice })
              : t('security.passkeys.lastUsed', { date: lastUsed })}
        </span>
      </div>
      <div className="security-item__actions">
        <Button onClick={onRename} aria-label={t('security.passkeys.renameOne', { name: passkey.name })}>
          {t('security.passkeys.rename')}
        </Button>
        <Button danger onClick={onRemove} aria-label={t('security.passkeys.removeOne', { name: passkey.name })}>
          {t('security.passkeys.remove')}
        </Button>
      </div>
    </li>
  );
}

type Naming = { passkey: Passkey; added: boolean };

/** The name field and its buttons, made anew for each passkey named. */
function NameForm({ naming, onClose }: { naming: Naming; onClose: () => void }) {
  const { t } = useTranslation('portal');
  const [rename, { isLoading }] = useRenamePasskeyMutation();
  const { failure, fail, clear } = useFailure();

  const save = async ({ name }: { name: string }) => {
    clear();
    const trimmed = name.trim();
    if (trimmed !== naming.passkey.name) {
      const result = await rename({ id: naming.passkey.id, name: trimmed });
      if (result.error) {
        fail(t('security.passkeys.renameFailed'), result.error);
        return;
      }
    }
    onClose();
  };

  return (
    <Form layout="vertical" initialValues={{ name: naming.passkey.name }} onFinish={(values: { name: string }) => void save(values)}>
      {naming.added ? <p>{t('security.passkeys.nameNewText')}</p> : null}
      <Form.Item
        name="name"
        label={t('security.passkeys.name')}
        rules={[
          { required: true, whitespace: true, message: t('security.passkeys.nameRequired') },
          { max: NAME_MAX_LENGTH, message: t('security.tooLong', { max: NAME_MAX_LENGTH }) },
        ]}
      >
        <Input autoFocus autoComplete="off" />
      </Form.Item>
      {failure ? <Alert className="security-card__alert" type="error" showIcon role="alert" title={failure.title} description={failure.detail} /> : null}
      <div className="security-dialog__actions">
        <Button onClick={onClose}>{naming.added ? t('security.passkeys.keepName') : t('security.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={isLoading}>
          {t('security.save')}
        </Button>
      </div>
    </Form>
  );
}

/** Names a passkey: the server's suggestion for one just added, its name for a rename. */
function NameDialog({ naming, onClose }: { naming: Naming | undefined; onClose: () => void }) {
  const { t } = useTranslation('portal');
  return (
    <Modal
      open={naming !== undefined}
      title={naming?.added ? t('security.passkeys.nameNewTitle') : t('security.passkeys.renameTitle')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      {naming ? <NameForm key={naming.passkey.id} naming={naming} onClose={onClose} /> : null}
    </Modal>
  );
}

/**
 * "Passkeys": the user's passkeys, to add (the browser creates it, the server names it, the user may
 * rename it), rename and remove. A group-domain account signs in with Microsoft and has none.
 */
export function PasskeysSection({ overview }: { overview: SecurityOverview }) {
  const { t } = useTranslation('portal');
  const guard = useRecentSignIn();
  const [getOptions] = usePasskeyRegistrationOptionsMutation();
  const [add] = useAddPasskeyMutation();
  const [remove] = useRemovePasskeyMutation();
  const [supported] = useState(browserSupportsWebAuthn);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string>();
  const [naming, setNaming] = useState<Naming>();
  const [removing, setRemoving] = useState<Passkey>();
  const { failure, fail, clear } = useFailure();
  const [toast, toastHolder] = message.useMessage();

  if (!overview.passkeysOffered) {
    return (
      <SecurityCard title={t('security.passkeys.title')} intro={t('security.passkeys.microsoft')} failure={undefined} />
    );
  }

  const addPasskey = async () => {
    const failed = t('security.passkeys.addFailed');
    const options = await guard(() => getOptions(), { needsRecent: true });
    if (!options) return;
    if (!options.data) return fail(failed, options.error);
    const optionsJSON = options.data.options as unknown as PublicKeyCredentialCreationOptionsJSON;
    const prompt = await runPrompt(() => startRegistration({ optionsJSON }));
    if ('failure' in prompt) {
      if (prompt.failure === 'cancelled') setNotice(t('security.passkeys.notAdded'));
      else if (prompt.failure === 'unusable') fail(failed, t('security.passkeys.notCreated'));
      return;
    }
    const added = await guard(() => add({ response: prompt.credential as unknown as Record<string, unknown> }));
    if (!added) return;
    if (!added.data) return fail(failed, added.error);
    void toast.success(t('security.passkeys.addedToast'));
    setNaming({ passkey: added.data, added: true });
  };

  const startAdding = async () => {
    setAdding(true);
    setNotice(undefined);
    clear();
    await addPasskey();
    setAdding(false);
  };

  const confirmRemoval = async (passkey: Passkey) => {
    setRemoving(undefined);
    clear();
    const result = await guard(() => remove(passkey.id), { needsRecent: true });
    if (!result) return;
    if (result.error) fail(t('security.passkeys.removeFailed', { name: passkey.name }), result.error);
    else void toast.success(t('security.passkeys.removed', { name: passkey.name }));
  };

  const full = overview.passkeys.length >= MAX;
  return (
    <SecurityCard title={t('security.passkeys.title')} intro={t('security.passkeys.intro')} failure={failure}>
      {toastHolder}
      {notice ? <Alert className="security-card__alert" type="info" showIcon title={notice} /> : null}
      {overview.passkeys.length ? (
        <ul className="security-list" aria-label={t('security.passkeys.list')}>
          {overview.passkeys.map((passkey) => (
            <PasskeyItem
              key={passkey.id}
              passkey={passkey}
              onRename={() => setNaming({ passkey, added: false })}
              onRemove={() => setRemoving(passkey)}
            />
          ))}
        </ul>
      ) : (
        <p className="security-card__empty">{t('security.passkeys.empty')}</p>
      )}
      {supported ? null : <Alert className="security-card__alert" type="warning" showIcon title={t('security.passkeys.notSupported')} />}
      {full ? <p className="security-card__empty">{t('security.passkeys.full', { max: MAX })}</p> : null}
      <div className="security-card__actions">
        <Button type="primary" icon={<KeyOutlined aria-hidden />} loading={adding} disabled={!supported || full} onClick={() => void startAdding()}>
          {t('security.passkeys.add')}
        </Button>
      </div>
      <NameDialog naming={naming} onClose={() => setNaming(undefined)} />
      <Modal
        open={removing !== undefined}
        title={t('security.passkeys.removeTitle', { name: removing?.name ?? '' })}
        okText={t('security.passkeys.remove')}
        okButtonProps={{ danger: true }}
        cancelText={t('security.cancel')}
        onOk={() => removing && void confirmRemoval(removing)}
        onCancel={() => setRemoving(undefined)}
        destroyOnHidden
      >
        <p>{t('security.passkeys.removeText')}</p>
      </Modal>
    </SecurityCard>
  );
}
