import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Checkbox from 'antd/es/checkbox';
import Descriptions from 'antd/es/descriptions';
import Modal from 'antd/es/modal';
import Skeleton from 'antd/es/skeleton';
import Tag from 'antd/es/tag';
import { useFormatDateTime } from '@gatehouse/frontend-shared';
import { useState } from 'react';
import { useResetUserFactorsMutation, useUserFactorsQuery, type ResettableFactor, type UserDetail, type UserFactors, type UserPasskey } from '../api/users-api';
import { ErrorAlert } from '../components/ErrorAlert';
import type { Feedback } from '../components/feedback';
import { useDirectoryTranslation } from '../use-directory-translation';

type User = Pick<UserDetail, 'id' | 'userName'>;
type Translate = ReturnType<typeof useDirectoryTranslation>['t'];

/** The kinds of factor the user holds, in the order the reset lists them. */
function heldKinds(factors: UserFactors): ResettableFactor[] {
  const held: ResettableFactor[] = [];
  if (factors.passkeys.length) held.push('passkeys');
  if (factors.totp.enrolled) held.push('totp');
  if (factors.recoveryCodes.remaining > 0) held.push('recoveryCodes');
  return held;
}

const KIND_NAMES = { passkeys: 'userFactors.kindPasskeys', totp: 'userFactors.kindTotp', recoveryCodes: 'userFactors.kindRecoveryCodes' } as const;

export interface UserFactorsCardProps {
  user: User;
  feedback: Feedback;
}

/**
 * A user's sign-in factors besides the password, as names and dates (never a secret), and their
 * reset: offered when the server says the caller may (never their own, nobody who outranks them).
 */
export function UserFactorsCard({ user, feedback }: UserFactorsCardProps) {
  const { t } = useDirectoryTranslation();
  const { data: factors, error, isLoading } = useUserFactorsQuery(user.id);
  const [resetting, setResetting] = useState(false);
  const held = factors ? heldKinds(factors) : [];

  const done = (removed: ResettableFactor[]) => {
    setResetting(false);
    if (removed.length) feedback.success(t('userFactors.removed', { userName: user.userName, kinds: removed.map((kind) => t(KIND_NAMES[kind])).join(', ') }));
    else feedback.warn(t('userFactors.nothingRemoved', { userName: user.userName }));
  };

  const resetButton = factors?.mayReset ? (
    <Button danger disabled={held.length === 0} title={held.length ? undefined : t('userFactors.nothingToReset')} onClick={() => setResetting(true)}>
      {t('userFactors.reset')}
    </Button>
  ) : null;

  return (
    <Card title={t('userFactors.title')} extra={resetButton}>
      {factors ? <FactorList factors={factors} /> : isLoading ? <Skeleton active /> : <ErrorAlert error={error} />}
      {resetting && factors ? <ResetFactorsDialog user={user} factors={factors} onClose={() => setResetting(false)} onDone={done} /> : null}
    </Card>
  );
}

function FactorList({ factors }: { factors: UserFactors }) {
  const { t } = useDirectoryTranslation();
  const formatDate = useFormatDateTime();
  const { totp, recoveryCodes } = factors;
  return (
    <Descriptions
      size="small"
      column={1}
      items={[
        {
          key: 'passkeys',
          label: t('userFactors.passkeys'),
          children: factors.passkeys.length ? (
            <ul className="directory-factor-list">
              {factors.passkeys.map((passkey) => (
                <PasskeyItem key={passkey.id} passkey={passkey} />
              ))}
            </ul>
          ) : (
            t('userFactors.noPasskeys')
          ),
        },
        {
          key: 'totp',
          label: t('userFactors.totp'),
          children: totp.enrolled ? t('userFactors.totpSince', { date: formatDate(totp.enrolledAt) }) : t('userFactors.notSetUp'),
        },
        {
          key: 'recoveryCodes',
          label: t('userFactors.recoveryCodes'),
          children: recoveryCodes.remaining
            ? t('userFactors.codesLeft', { count: recoveryCodes.remaining, date: formatDate(recoveryCodes.generatedAt) })
            : t('userFactors.noCodes'),
        },
        { key: 'emailCode', label: t('userFactors.emailCode'), children: factors.emailCode ? t('userFactors.on') : t('userFactors.off') },
      ]}
    />
  );
}

function PasskeyItem({ passkey }: { passkey: UserPasskey }) {
  const { t } = useDirectoryTranslation();
  const formatDate = useFormatDateTime();
  return (
    <li>
      <span className="directory-factor__name">{passkey.name}</span> <Tag>{passkey.backedUp ? t('userFactors.synced') : t('userFactors.singleDevice')}</Tag>
      <span className="directory-factor__meta">{added(t, formatDate, passkey)}</span>
      <span className="directory-factor__meta">{lastUsed(t, formatDate, passkey)}</span>
    </li>
  );
}

const added = (t: Translate, formatDate: (value: string) => string, passkey: UserPasskey) =>
  passkey.deviceHint ? t('userFactors.addedFrom', { date: formatDate(passkey.createdAt), device: passkey.deviceHint }) : t('userFactors.added', { date: formatDate(passkey.createdAt) });

function lastUsed(t: Translate, formatDate: (value: string) => string, passkey: UserPasskey): string {
  if (!passkey.lastUsedAt) return t('userFactors.neverUsed');
  const date = formatDate(passkey.lastUsedAt);
  return passkey.lastUsedDevice ? t('userFactors.lastUsedFrom', { date, device: passkey.lastUsedDevice }) : t('userFactors.lastUsed', { date });
}

interface ResetFactorsDialogProps {
  user: User;
  factors: UserFactors;
  onClose: () => void;
  onDone: (removed: ResettableFactor[]) => void;
}

/** Asks which of the kinds the user holds to remove (none ticked at first), then removes them. */
function ResetFactorsDialog({ user, factors, onClose, onDone }: ResetFactorsDialogProps) {
  const { t } = useDirectoryTranslation();
  const [chosen, setChosen] = useState<ResettableFactor[]>([]);
  const [reset, { isLoading }] = useResetUserFactorsMutation();
  const [error, setError] = useState<unknown>();
  const labels: Record<ResettableFactor, string> = {
    passkeys: t('userFactors.passkeysCount', { count: factors.passkeys.length }),
    totp: t('userFactors.totp'),
    recoveryCodes: t('userFactors.recoveryCodes'),
  };

  const submit = async () => {
    setError(undefined);
    const result = await reset({ id: user.id, kinds: chosen });
    if (result.error) setError(result.error);
    else onDone(result.data.removed);
  };

  return (
    <Modal
      open
      title={t('userFactors.resetTitle', { userName: user.userName })}
      okText={t('userFactors.remove')}
      okButtonProps={{ danger: true, disabled: chosen.length === 0 }}
      cancelText={t('common.cancel')}
      confirmLoading={isLoading}
      onOk={() => void submit()}
      onCancel={onClose}
    >
      {/* A refusal says why: the account outranks the caller, or is their own. */}
      <ErrorAlert error={error} explains403 className="directory-form-error" />
      <p>{t('userFactors.resetText')}</p>
      <Checkbox.Group
        className="directory-role-choices"
        aria-label={t('userFactors.resetKinds')}
        value={chosen}
        onChange={(values) => setChosen(values as ResettableFactor[])}
        options={heldKinds(factors).map((kind) => ({ value: kind, label: labels[kind] }))}
      />
    </Modal>
  );
}
