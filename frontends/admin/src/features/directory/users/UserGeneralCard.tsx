import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Checkbox from 'antd/es/checkbox';
import Descriptions from 'antd/es/descriptions';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import { useFormatDateTime } from '@gatehouse/frontend-shared';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useUpdateUserMutation, type UserChanges, type UserDetail } from '../api/users-api';
import { ErrorAlert } from '../components/ErrorAlert';
import { showFieldErrors } from '../components/errors';
import type { Feedback } from '../components/feedback';
import { AreaSelect, LanguageSelect } from '../components/selects';
import { useDirectoryTranslation } from '../use-directory-translation';
import { userFieldRules } from './user-rules';

const FIELDS = ['email', 'firstName', 'lastName', 'language', 'areaId', 'validateScopes'] as const;

export interface UserGeneralCardProps {
  user: UserDetail;
  readOnly: boolean;
  feedback: Feedback;
}

/** General properties: the editable fields, then those the directory owns (read-only). */
export function UserGeneralCard({ user, readOnly, feedback }: UserGeneralCardProps) {
  const { t } = useDirectoryTranslation();
  const formatDate = useFormatDateTime();
  const [form] = Form.useForm<UserChanges>();
  const [update, { isLoading }] = useUpdateUserMutation();
  const [error, setError] = useState<unknown>();
  const rules = userFieldRules(t);

  const save = async (changes: UserChanges) => {
    setError(undefined);
    const result = await update({ id: user.id, changes });
    if (result.error) {
      if (!showFieldErrors(form, result.error, FIELDS)) setError(result.error);
      return;
    }
    feedback.success(t('common.saved'));
  };

  return (
    <Card title={t('userDetail.general')}>
      <ErrorAlert error={error} className="directory-form-error" />
      <Form<UserChanges>
        form={form}
        name="user-general"
        layout="vertical"
        disabled={readOnly}
        initialValues={{
          email: user.email,
          // A user created by an import may have no name yet: the form then asks for one.
          firstName: user.firstName ?? undefined,
          lastName: user.lastName ?? undefined,
          language: user.language,
          areaId: user.areaId,
          validateScopes: user.validateScopes,
        }}
        onFinish={(changes) => void save(changes)}
      >
        <Form.Item label={t('user.userName')}>
          <Input value={user.userName} readOnly disabled />
        </Form.Item>
        <Form.Item name="email" label={t('user.email')} rules={rules.email}>
          <Input type="email" />
        </Form.Item>
        <Form.Item name="firstName" label={t('user.firstName')} rules={rules.firstName}>
          <Input />
        </Form.Item>
        <Form.Item name="lastName" label={t('user.lastName')} rules={rules.lastName}>
          <Input />
        </Form.Item>
        <Form.Item name="language" label={t('user.language')} rules={rules.language}>
          <LanguageSelect />
        </Form.Item>
        <Form.Item name="areaId" label={t('user.area')} rules={rules.areaId}>
          <AreaSelect />
        </Form.Item>
        <Form.Item name="validateScopes" valuePropName="checked">
          <Checkbox>{t('user.validateScopes')}</Checkbox>
        </Form.Item>
        <Form.Item label={t('user.jobTitle')}>
          <Input value={user.jobTitle ?? ''} readOnly disabled />
        </Form.Item>
        <Form.Item label={t('user.manager')}>
          <Input value={user.manager ?? ''} readOnly disabled />
        </Form.Item>
        {readOnly ? null : (
          <Button type="primary" htmlType="submit" loading={isLoading}>
            {t('common.save')}
          </Button>
        )}
      </Form>
      <Descriptions
        className="directory-user-facts"
        size="small"
        column={1}
        items={[
          {
            key: 'teams',
            label: t('user.teams'),
            children: user.teams.length ? user.teams.map((team) => <Tag key={team}>{team}</Tag>) : t('common.none'),
          },
          { key: 'emailVerified', label: t('userDetail.emailVerified'), children: user.emailVerified ? t('common.yes') : t('common.no') },
          { key: 'twoFactor', label: t('userDetail.twoFactor'), children: user.twoFactorEnabled ? t('common.yes') : t('common.no') },
          {
            key: 'lastLogin',
            label: t('userDetail.lastLogin'),
            children: user.lastLoginAt ? formatDate(user.lastLoginAt) : t('userDetail.never'),
          },
          { key: 'createdAt', label: t('userDetail.createdAt'), children: formatDate(user.createdAt) },
        ]}
      />
    </Card>
  );
}
