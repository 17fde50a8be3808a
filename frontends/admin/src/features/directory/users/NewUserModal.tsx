import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useCreateUserMutation, type NewUser, type UserDetail } from '../api/users-api';
import { FormDialog, useFormSubmit } from '../components/FormDialog';
import { AreaSelect, LanguageSelect } from '../components/selects';
import { useDirectoryTranslation } from '../use-directory-translation';
import { PasswordRules } from './PasswordRules';
import { confirmationRule, userFieldRules } from './user-rules';

/** The new user, and whether the administrator chooses the password. */
interface NewUserValues extends Omit<NewUser, 'password' | 'confirmPassword'> {
  password?: string;
  confirmPassword?: string;
  validateScopes: boolean;
  sendEmailInvite: boolean;
  createPassword: boolean;
}

const FIELDS = ['userName', 'email', 'firstName', 'lastName', 'areaId', 'language', 'password', 'confirmPassword'] as const;

export interface NewUserModalProps {
  onClose: () => void;
  onCreated: (user: UserDetail) => void;
}

/**
 * The New user dialog, mounted while open so each opening starts blank. Without "Create password"
 * the server generates a random password (the invitation lets the user choose theirs).
 */
export function NewUserModal({ onClose, onCreated }: NewUserModalProps) {
  const { t } = useDirectoryTranslation();
  const [form] = Form.useForm<NewUserValues>();
  const [createUser, { isLoading }] = useCreateUserMutation();
  const { error, send } = useFormSubmit(form, FIELDS);
  const createPassword = Form.useWatch('createPassword', form);
  const password = Form.useWatch('password', form);
  // The new user's own words, which a password of theirs should not be built on.
  const userInputs = [Form.useWatch('userName', form), Form.useWatch('email', form), Form.useWatch('firstName', form), Form.useWatch('lastName', form)];
  const rules = userFieldRules(t);

  const submit = ({ createPassword: withPassword, password: chosen, confirmPassword, ...values }: NewUserValues) => {
    const body: NewUser = withPassword ? { ...values, password: chosen, confirmPassword } : values;
    return send(() => createUser(body), onCreated);
  };

  return (
    <FormDialog width={600} title={t('users.newUser')} okText={t('common.create')} form={form} loading={isLoading} error={error} onClose={onClose}>
      <Form<NewUserValues>
        form={form}
        name="new-user"
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={{ validateScopes: false, sendEmailInvite: true, createPassword: false }}
      >
        <Form.Item name="userName" label={t('user.userName')} rules={rules.userName}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="email" label={t('user.email')} rules={rules.email}>
          <Input type="email" autoComplete="off" />
        </Form.Item>
        <Form.Item name="firstName" label={t('user.firstName')} rules={rules.firstName}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="lastName" label={t('user.lastName')} rules={rules.lastName}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="areaId" label={t('user.area')} rules={rules.areaId}>
          <AreaSelect />
        </Form.Item>
        <Form.Item name="language" label={t('user.language')} rules={rules.language}>
          <LanguageSelect />
        </Form.Item>
        <Form.Item name="validateScopes" valuePropName="checked">
          <Checkbox>{t('user.validateScopes')}</Checkbox>
        </Form.Item>
        <Form.Item name="sendEmailInvite" valuePropName="checked">
          <Checkbox>{t('users.sendInvite')}</Checkbox>
        </Form.Item>
        <Form.Item name="createPassword" valuePropName="checked" extra={createPassword ? undefined : t('users.randomPassword')}>
          <Checkbox>{t('users.createPassword')}</Checkbox>
        </Form.Item>
        {createPassword ? (
          <>
            <Form.Item name="password" label={t('password.password')} extra={t('password.temporary')} rules={[{ required: true, message: t('password.required') }]}>
              <Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="confirmPassword"
              label={t('password.confirmPassword')}
              dependencies={['password']}
              rules={[{ required: true, message: t('password.confirmRequired') }, confirmationRule('password', t)]}
            >
              <Password autoComplete="new-password" />
            </Form.Item>
            <PasswordRules password={password} userInputs={userInputs} />
          </>
        ) : null}
      </Form>
    </FormDialog>
  );
}
